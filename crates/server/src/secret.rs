//! Random ids, seeds and tokens, and how tokens are kept and checked.
//!
//! Everything random comes from the operating system (`getrandom`). A token
//! is 192 random bits written in URL-safe base64 (32 characters); the server
//! keeps only its SHA-256 and compares hashes in constant time.
//!
//! A seat taken with an invite gets a fresh token. When the joining client
//! sends a join key of its own (at least 128 random bits), the server also
//! keeps that token sealed under the invite and the key ([`JoinSeal`]), so
//! that the same client retrying a join whose reply it lost is handed the
//! same token again, and nobody else is.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Bytes of a game id: 96 bits, 16 characters.
const ID_BYTES: usize = 12;
/// The length of a game id's text: 16 base64url characters of its 12 bytes.
pub const ID_TEXT_LEN: usize = ID_BYTES / 3 * 4;
/// Bytes of a token: 192 bits, 32 characters.
pub const TOKEN_BYTES: usize = 24;
/// Bytes of a game's seed.
pub const SEED_BYTES: usize = 32;
/// The fewest characters of a join key: 22 URL-safe base64 characters
/// spell 132 bits.
pub const JOIN_KEY_MIN: usize = 22;
/// The most characters of a join key.
pub const JOIN_KEY_MAX: usize = 128;

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
    text.len() == ID_TEXT_LEN
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

/// A new token for the seat taken with `invite` by the client that sent
/// join key `key`, its hash, and the seal that lets the same invite and key
/// open it again.
///
/// # Errors
///
/// [`RandomError`] when the random source fails.
///
/// ```
/// use race_server::secret::{new_sealed_token, TokenHash};
///
/// let key = "a-join-key-of-the-client-1";
/// let (token, hash, seal) = new_sealed_token("the-invite", key)?;
/// assert!(hash.matches(&TokenHash::of(token.reveal())));
/// assert_eq!(seal.open("the-invite", key), Some(token));
/// assert_eq!(seal.open("the-invite", "another-key-of-someone-else"), None);
/// assert_eq!(seal.open("another-invite", key), None);
/// # Ok::<(), race_server::secret::RandomError>(())
/// ```
pub fn new_sealed_token(
    invite: &str,
    key: &str,
) -> Result<(Token, TokenHash, JoinSeal), RandomError> {
    let bytes = random::<TOKEN_BYTES>()?;
    let token = Token(URL_SAFE_NO_PAD.encode(bytes));
    let hash = TokenHash::of(token.reveal());
    let mask = derive(b"race join seal", invite, key);
    let mut sealed = [0u8; TOKEN_BYTES];
    for ((s, b), m) in sealed.iter_mut().zip(bytes).zip(mask) {
        *s = b ^ m;
    }
    let seal = JoinSeal {
        check: derive(b"race join check", invite, key),
        sealed,
    };
    Ok((token, hash, seal))
}

/// Whether `key` may be a join key: [`JOIN_KEY_MIN`] to [`JOIN_KEY_MAX`]
/// URL-safe base64 characters.
#[must_use]
pub fn is_join_key(key: &str) -> bool {
    (JOIN_KEY_MIN..=JOIN_KEY_MAX).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// SHA-256 over a label, the invite (its length first) and the key.
fn derive(label: &[u8], invite: &str, key: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(label);
    h.update([0]);
    h.update((invite.len() as u64).to_be_bytes());
    h.update(invite.as_bytes());
    h.update(key.as_bytes());
    h.finalize().into()
}

/// What the store keeps of a joined seat's token so that a retry of the
/// join can be answered: a hash that checks the invite and the join key,
/// and the token's bytes masked with another hash of them. Neither tells
/// the token to someone without the key.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct JoinSeal {
    /// SHA-256 of a label, the invite and the key: the key is checked
    /// against it.
    pub check: [u8; 32],
    /// The token's bytes XOR a second hash of the invite and the key.
    pub sealed: [u8; TOKEN_BYTES],
}

impl JoinSeal {
    /// The token sealed, when `invite` and `key` are those it was sealed
    /// under (checked in constant time).
    #[must_use]
    pub fn open(&self, invite: &str, key: &str) -> Option<Token> {
        let check = derive(b"race join check", invite, key);
        if !bool::from(self.check.ct_eq(&check)) {
            return None;
        }
        let mask = derive(b"race join seal", invite, key);
        let mut bytes = [0u8; TOKEN_BYTES];
        for ((b, s), m) in bytes.iter_mut().zip(self.sealed).zip(mask) {
            *b = s ^ m;
        }
        Some(Token(URL_SAFE_NO_PAD.encode(bytes)))
    }
}

impl fmt::Debug for JoinSeal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JoinSeal(..)")
    }
}

/// A token, handed to its holder once and never logged: its `Debug` form
/// hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
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
    fn a_sealed_token_is_fresh_each_time_and_opens_only_for_its_key() {
        let key = "k".repeat(JOIN_KEY_MIN);
        let (a, ha, seal) = new_sealed_token("invite", &key).unwrap();
        let (b, _, other) = new_sealed_token("invite", &key).unwrap();
        assert_ne!(a, b);
        assert_eq!(
            seal.check, other.check,
            "the check depends on the key alone"
        );
        assert_ne!(seal.sealed, other.sealed);
        let opened = seal.open("invite", &key).unwrap();
        assert!(ha.matches(&TokenHash::of(opened.reveal())));
        assert_eq!(seal.open("invite", &"k".repeat(JOIN_KEY_MIN + 1)), None);
        assert_eq!(format!("{seal:?}"), "JoinSeal(..)");
        assert!(is_join_key(&key) && is_join_key(&"-_aZ09".repeat(20)));
        assert!(!is_join_key(&"k".repeat(JOIN_KEY_MIN - 1)));
        assert!(!is_join_key(&"k".repeat(JOIN_KEY_MAX + 1)));
        assert!(!is_join_key(&format!("{} ", "k".repeat(JOIN_KEY_MIN))));
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
