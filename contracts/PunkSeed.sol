// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";
import {SignatureGuard} from "./SignatureGuard.sol";

/// @title PunkSeed
/// @notice Seed tokens minted with a backend signature. Each signature authorizes exactly one token for msg.sender,
/// so the seed is an ERC-721: the signed message carries no amount, and every seed is its own collectible.
/// @dev The signed message is keccak256(abi.encodePacked(to, nonce, "MINT_PUNK_SEED")) as an EIP-191 personal
/// message. It binds neither chain id nor contract address (the interface spec fixes it), so cross-chain replay
/// protection rests on the backend using a distinct signing key per chain id.
contract PunkSeed is ERC721, SignatureGuard {
    /// @notice The tag closing every mint message.
    string public constant MINT_TAG = "MINT_PUNK_SEED";

    /// @notice Number of seeds minted; token ids run from 1 to totalMinted.
    uint256 public totalMinted;

    event Minted(address indexed to, uint256 indexed tokenId, uint256 nonce);

    constructor(
        address initialSigner,
        address initialOwner
    ) ERC721("Punk Seed", "SEED") SignatureGuard(initialSigner, initialOwner) {}

    /// @notice Mints one seed to msg.sender with a mint signature from the backend.
    function mintWithSignature(bytes calldata signature) external returns (uint256 tokenId) {
        bytes32 signatureHash = _requireUnused(signature);
        uint256 nonce = _currentNonce(msg.sender);
        bytes32 digest = MessageHashUtils.toEthSignedMessageHash(mintMessageHash(msg.sender, nonce));
        if (!_isSignerSignature(digest, signature)) revert InvalidSignature();
        _consume(msg.sender, signatureHash);
        tokenId = ++totalMinted;
        emit Minted(msg.sender, tokenId, nonce);
        // State is final before the receiver hook runs, so a re-entering minter meets an advanced nonce.
        _safeMint(msg.sender, tokenId);
    }

    /// @notice keccak256(abi.encodePacked(to, nonce, "MINT_PUNK_SEED")), the hash the backend signs.
    function mintMessageHash(address to, uint256 nonce) public pure returns (bytes32) {
        return keccak256(abi.encodePacked(to, nonce, MINT_TAG));
    }
}
