//! Random ids, seeds and tokens, and how tokens are kept and checked.
//!
//! Everything random comes from the operating system (`getrandom`). A token
//! is 192 random bits written in URL-safe base64 (32 characters); the server
//! keeps only its SHA-256 and compares hashes in constant time.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Bytes of a game id: 96 bits, 16 characters.
const ID_BYTES: usize = 12;
/// Bytes of a token: 192 bits, 32 characters.
const TOKEN_BYTES: usize = 24;
/// Bytes of a game's seed.
pub const SEED_BYTES: usize = 32;

/// The operating system's random source failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the operating system's random source failed: {0}")]
pub struct RandomError(String);

/// Fills `N` bytes from the operating system's random source.
///
/// # Errors
///
/// [`RandomError`] when the source fails.
pub fn random<const N: usize>() -> Result<[u8; N], RandomError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| RandomError(e.to_string()))?;
    Ok(bytes)
}

/// A new game id: URL-safe, 96 random bits.
///
/// # Errors
///
/// [`RandomError`] when the random source fails.
pub fn new_id() -> Result<String, RandomError> {
    Ok(URL_SAFE_NO_PAD.encode(random::<ID_BYTES>()?))
}

/// Whether `text` could be a game id (it may still name no game).
#[must_use]
pub fn is_id(text: &str) -> bool {
    text.len() == ID_BYTES / 3 * 4
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A new token and the hash the server keeps of it.
///
/// # Errors
///
/// [`RandomError`] when the random source fails.
pub fn new_token() -> Result<(Token, TokenHash), RandomError> {
    let token = Token(URL_SAFE_NO_PAD.encode(random::<TOKEN_BYTES>()?));
    let hash = TokenHash::of(token.reveal());
    Ok((token, hash))
}

/// A token, handed to its holder once and never logged: its `Debug` form
/// hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// A token presented by a client (an invite that becomes a seat's
    /// token).
    #[must_use]
    pub fn from_text(text: String) -> Token {
        Token(text)
    }

    /// The token's text, for the one reply that hands it over.
    #[must_use]
    pub fn reveal(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(..)")
    }
}

/// The SHA-256 of a token: what the store keeps.
#[derive(Clone, Copy)]
pub struct TokenHash(pub [u8; 32]);

impl TokenHash {
    /// The hash of a presented token's text.
    #[must_use]
    pub fn of(token: &str) -> TokenHash {
        TokenHash(Sha256::digest(token.as_bytes()).into())
    }

    /// Whether two hashes are equal, in time that does not depend on where
    /// they differ.
    #[must_use]
    pub fn matches(&self, other: &TokenHash) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenHash(..)")
    }
}

/// The commitment to a seed: the lowercase hex SHA-256 of its bytes.
#[must_use]
pub fn commitment(seed: &[u8]) -> String {
    Sha256::digest(seed)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_url_safe_distinct_and_hidden_from_debug() {
        let (a, ha) = new_token().unwrap();
        let (b, hb) = new_token().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.reveal().len(), 32);
        assert!(
            a.reveal()
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        );
        assert!(ha.matches(&TokenHash::of(a.reveal())));
        assert!(!ha.matches(&hb));
        assert_eq!(format!("{a:?} {ha:?}"), "Token(..) TokenHash(..)");
    }

    #[test]
    fn ids_are_recognised() {
        let id = new_id().unwrap();
        assert!(is_id(&id), "{id}");
        assert!(!is_id("short"));
        assert!(!is_id("aaaaaaaaaaaaaaa/"));
    }

    #[test]
    fn the_commitment_is_the_sha256_of_the_seed() {
        assert_eq!(
            commitment(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
