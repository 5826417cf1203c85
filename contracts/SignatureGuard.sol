// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable2Step, Ownable} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title SignatureGuard
/// @notice Shared replay protection for backend-signed vouchers: one trusted `signer` (rotatable by the owner),
/// a per-user nonce that every accepted signature consumes, and a registry of consumed signatures.
/// @dev A consumed signature is remembered by the hash of its bytes, not by its digest: after the nonce moved on,
/// a replayed signature no longer recovers to the signer (its digest used the old nonce), so only the byte-hash
/// registry can tell "already used" apart from "never valid". ECDSA.tryRecover accepts 65-byte low-s signatures
/// only, so each digest has exactly one accepted encoding and the byte hash is a faithful identity.
abstract contract SignatureGuard is Ownable2Step {
    /// @notice The address whose signatures this contract accepts.
    address public signer;

    mapping(address user => uint256) private _nonces;
    mapping(bytes32 signatureHash => bool) private _consumed;

    /// @notice The signature does not recover to `signer` for the current nonce (wrong key, wrong chain,
    /// wrong contract, stale nonce, expired or malformed).
    error InvalidSignature();
    /// @notice This exact signature was already consumed; the caller needs a fresh one.
    error SignatureAlreadyUsed(bytes32 signatureHash);
    /// @notice The zero address cannot be the signer.
    error ZeroSigner();

    /// @notice Emitted whenever a signature is accepted; the backend marks its stored signature as used.
    event SignatureConsumed(address indexed user, uint256 indexed nonce, bytes32 indexed signatureHash);
    /// @notice Emitted when the owner rotates the signing key.
    event SignerUpdated(address indexed previousSigner, address indexed newSigner);

    constructor(address initialSigner, address initialOwner) Ownable(initialOwner) {
        _setSigner(initialSigner);
    }

    /// @notice The nonce the next signature for `user` must carry.
    function getNonce(address user) external view returns (uint256) {
        return _nonces[user];
    }

    /// @notice Whether a signature with this byte hash (keccak256 of the signature) was consumed.
    function isSignatureUsed(bytes32 signatureHash) external view returns (bool) {
        return _consumed[signatureHash];
    }

    /// @notice Rotates the signing key; signatures from the previous key stop being accepted at once.
    function setSigner(address newSigner) external onlyOwner {
        _setSigner(newSigner);
    }

    /// @dev Reverts with SignatureAlreadyUsed for a consumed signature; call before any other validation so a
    /// replay is reported as such whatever else changed since.
    function _requireUnused(bytes calldata signature) internal view returns (bytes32 signatureHash) {
        signatureHash = keccak256(signature);
        if (_consumed[signatureHash]) revert SignatureAlreadyUsed(signatureHash);
    }

    /// @dev Whether `signature` is the signer's signature over `digest`.
    function _isSignerSignature(bytes32 digest, bytes calldata signature) internal view returns (bool) {
        (address recovered, ECDSA.RecoverError err, ) = ECDSA.tryRecoverCalldata(digest, signature);
        return err == ECDSA.RecoverError.NoError && recovered == signer;
    }

    /// @dev Records the signature as consumed and advances the user's nonce.
    function _consume(address user, bytes32 signatureHash) internal returns (uint256 usedNonce) {
        usedNonce = _nonces[user]++;
        _consumed[signatureHash] = true;
        emit SignatureConsumed(user, usedNonce, signatureHash);
    }

    /// @dev The nonce the current signature of `user` must carry.
    function _currentNonce(address user) internal view returns (uint256) {
        return _nonces[user];
    }

    function _setSigner(address newSigner) private {
        if (newSigner == address(0)) revert ZeroSigner();
        emit SignerUpdated(signer, newSigner);
        signer = newSigner;
    }
}
