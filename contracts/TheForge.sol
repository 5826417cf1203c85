// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureGuard} from "./SignatureGuard.sol";

/// @title TheForge
/// @notice Forging with backend-issued EIP-712 vouchers (domain "TheForge", version "2"). A forge is started with a
/// ForgeStart signature and later claimed with a ForgeClaim ("completion") signature; each consumes the
/// forger's nonce.
/// @dev Lifecycle: (none) --startForge--> Started --claimForge--> Claimed. A forge is keyed by
/// forgeId = keccak256(abi.encodePacked(forger, path, timestamp, nonce)). The backend signs a forgeId whose
/// timestamp it predicted (latest block + a 10-30 s buffer) and returns that timestamp as `expiresAt`.
/// startForge accepts the signature when the transaction is mined at any block timestamp in
/// [expiresAt - START_WINDOW, expiresAt]: it derives the candidate forgeId for each second from block.timestamp
/// upwards and checks the signature against it. Mined exactly at the predicted timestamp, this is the spec's
/// forgeId over block.timestamp, found at the first candidate; mined earlier, the forge keeps the signed
/// (predicted) id, so the id the backend returned stays valid; mined after expiresAt, no candidate matches and
/// the voucher has expired (InvalidSignature).
contract TheForge is EIP712, SignatureGuard {
    /// @notice The five forge paths; 0 is the labor path.
    enum ForgePath {
        Labor,
        Craft,
        Trade,
        Wisdom,
        Chaos
    }

    /// @notice A started forge. `claimed` flips once, in claimForge.
    struct Forge {
        address forger;
        ForgePath path;
        bool claimed;
        uint64 startedAt;
        uint256 zenCommitted;
    }

    /// @notice EIP-712 type hash of ForgeStart; member order as in the interface spec.
    bytes32 public constant FORGE_START_TYPEHASH =
        keccak256("ForgeStart(address forger,uint8 path,uint256 zenCommitted,bytes32 forgeId,uint256 nonce)");
    /// @notice EIP-712 type hash of ForgeClaim; member order as in the interface spec.
    bytes32 public constant FORGE_CLAIM_TYPEHASH = keccak256("ForgeClaim(bytes32 forgeId,address forger,uint256 nonce)");
    /// @notice Seconds before the signed timestamp (expiresAt) during which a start voucher is accepted.
    uint256 public constant START_WINDOW = 30;

    mapping(bytes32 forgeId => Forge) private _forges;

    error ZeroZenCommitted();
    error ForgeNotFound(bytes32 forgeId);
    error NotForger(bytes32 forgeId, address caller);
    error ForgeAlreadyClaimed(bytes32 forgeId);

    event ForgeStarted(
        bytes32 indexed forgeId,
        address indexed forger,
        ForgePath path,
        uint256 zenCommitted,
        uint256 nonce
    );
    event ForgeClaimed(bytes32 indexed forgeId, address indexed forger, uint256 nonce);

    constructor(
        address initialSigner,
        address initialOwner
    ) EIP712("TheForge", "2") SignatureGuard(initialSigner, initialOwner) {}

    /// @notice Starts a forge for msg.sender with a ForgeStart signature from the backend.
    function startForge(
        ForgePath path,
        uint256 zenCommitted,
        bytes calldata signature
    ) external returns (bytes32 forgeId) {
        bytes32 signatureHash = _requireUnused(signature);
        if (zenCommitted == 0) revert ZeroZenCommitted();
        uint256 nonce = _currentNonce(msg.sender);
        forgeId = _signedForgeId(msg.sender, path, zenCommitted, nonce, signature);
        _consume(msg.sender, signatureHash);
        _forges[forgeId] = Forge({
            forger: msg.sender,
            path: path,
            claimed: false,
            startedAt: uint64(block.timestamp),
            zenCommitted: zenCommitted
        });
        emit ForgeStarted(forgeId, msg.sender, path, zenCommitted, nonce);
    }

    /// @notice Claims msg.sender's started forge with a ForgeClaim signature from the backend.
    function claimForge(bytes32 forgeId, bytes calldata completionSignature) external {
        bytes32 signatureHash = _requireUnused(completionSignature);
        Forge storage forge = _forges[forgeId];
        if (forge.forger == address(0)) revert ForgeNotFound(forgeId);
        if (forge.forger != msg.sender) revert NotForger(forgeId, msg.sender);
        if (forge.claimed) revert ForgeAlreadyClaimed(forgeId);
        uint256 nonce = _currentNonce(msg.sender);
        bytes32 digest = _hashTypedDataV4(keccak256(abi.encode(FORGE_CLAIM_TYPEHASH, forgeId, msg.sender, nonce)));
        if (!_isSignerSignature(digest, completionSignature)) revert InvalidSignature();
        forge.claimed = true;
        _consume(msg.sender, signatureHash);
        emit ForgeClaimed(forgeId, msg.sender, nonce);
    }

    /// @notice The forge stored under `forgeId` (forger is the zero address when there is none).
    function getForge(bytes32 forgeId) external view returns (Forge memory) {
        return _forges[forgeId];
    }

    /// @notice The EIP-712 domain separator of this deployment (name, version, chain id, address).
    function domainSeparator() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    /// @notice forgeId = keccak256(abi.encodePacked(forger, uint8 path, timestamp, nonce)).
    function computeForgeId(
        address forger,
        ForgePath path,
        uint256 timestamp,
        uint256 nonce
    ) public pure returns (bytes32) {
        return keccak256(abi.encodePacked(forger, path, timestamp, nonce));
    }

    /// @dev The forgeId the signature covers, searching signed timestamps from block.timestamp up to
    /// block.timestamp + START_WINDOW; reverts InvalidSignature when none matches.
    function _signedForgeId(
        address forger,
        ForgePath path,
        uint256 zenCommitted,
        uint256 nonce,
        bytes calldata signature
    ) private view returns (bytes32) {
        uint256 last = block.timestamp + START_WINDOW;
        for (uint256 timestamp = block.timestamp; timestamp <= last; ++timestamp) {
            bytes32 candidate = computeForgeId(forger, path, timestamp, nonce);
            bytes32 structHash = keccak256(
                abi.encode(FORGE_START_TYPEHASH, forger, path, zenCommitted, candidate, nonce)
            );
            if (_isSignerSignature(_hashTypedDataV4(structHash), signature)) return candidate;
        }
        revert InvalidSignature();
    }
}
