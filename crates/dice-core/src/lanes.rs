//! SHA-256 compression of several independent blocks side by side.
//!
//! A seeded game hashes one 64-byte block per throw, always from the same
//! starting state (the seed's), and the blocks of ten throws in a row differ
//! only in the last digit of the throw number. One compression is a long
//! chain of dependent rounds, so hashing throws one at a time leaves most of
//! the processor idle. With the x86 SHA extensions the ten blocks are made
//! in registers and their rounds interleaved two at a time, which
//! hashes the ten in well under ten times the cost of one. Elsewhere, or on a
//! processor without the extensions, the blocks go through `sha2` one after
//! another; both paths give the same words, which the tests check.

use sha2::block_api::compress256;

/// A 64-byte block as sixteen big-endian words, in groups of four (the
/// order the SHA instructions take them).
pub(crate) type Block = [[u32; 4]; 4];

/// The block's words.
pub(crate) fn words(bytes: &[u8; 64]) -> Block {
    let (groups, _) = bytes.as_chunks::<16>();
    std::array::from_fn(|g| {
        let group = groups.get(g).copied().unwrap_or_default();
        let (words, _) = group.as_chunks::<4>();
        std::array::from_fn(|w| u32::from_be_bytes(words.get(w).copied().unwrap_or_default()))
    })
}

/// The block's bytes.
fn bytes(block: &Block) -> [u8; 64] {
    let mut bytes = [0; 64];
    for (chunk, word) in bytes.chunks_exact_mut(4).zip(block.as_flattened()) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    bytes
}

/// The first word of the state after compressing each of the ten blocks
/// `base + k * step` (word by word, wrapping), `k` in `0..10`, from `state`
/// (a single compression each, no finalisation).
///
/// Inlined into the thrower, as the settle loop asks for it every tenth
/// throw: left as a call, whole random games ran a few percent slower.
#[inline]
pub(crate) fn decade(state: &[u32; 8], base: &Block, step: &Block) -> [u32; 10] {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("sha")
        && std::is_x86_feature_detected!("ssse3")
        && std::is_x86_feature_detected!("sse4.1")
    {
        #[allow(
            unsafe_code,
            reason = "a SHA-extension function, called once its features are detected"
        )]
        // SAFETY: the function needs exactly the features detected above.
        return unsafe { x86::decade(state, base, step) };
    }
    portable(state, base, step)
}

/// One block after another through `sha2`.
fn portable(state: &[u32; 8], base: &Block, step: &Block) -> [u32; 10] {
    std::array::from_fn(|k| {
        let k = k as u32;
        let mut block = *base;
        for (word, step) in block.as_flattened_mut().iter_mut().zip(step.as_flattened()) {
            *word = word.wrapping_add(step.wrapping_mul(k));
        }
        let mut words = *state;
        compress256(&mut words, &[bytes(&block)]);
        words[0]
    })
}

#[cfg(target_arch = "x86_64")]
// The indices below are loop counters bounded by the lengths of the arrays
// they index: `lane < LANES` for the per-lane arrays and `4 * r + 3 < 64` for
// the round constants (`r < 16`).
#[allow(
    clippy::indexing_slicing,
    reason = "hot path; every index is a loop counter below its array's length"
)]
mod x86 {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_extract_epi32, _mm_set_epi32,
        _mm_sha256msg1_epu32, _mm_sha256msg2_epu32, _mm_sha256rnds2_epu32, _mm_shuffle_epi32,
    };

    use super::Block;

    /// How many blocks are compressed together: two keep every lane's
    /// state and message words in the sixteen vector registers.
    const LANES: usize = 2;

    /// The SHA-256 round constants.
    const K: [u32; 64] = [
        0x428a_2f98,
        0x7137_4491,
        0xb5c0_fbcf,
        0xe9b5_dba5,
        0x3956_c25b,
        0x59f1_11f1,
        0x923f_82a4,
        0xab1c_5ed5,
        0xd807_aa98,
        0x1283_5b01,
        0x2431_85be,
        0x550c_7dc3,
        0x72be_5d74,
        0x80de_b1fe,
        0x9bdc_06a7,
        0xc19b_f174,
        0xe49b_69c1,
        0xefbe_4786,
        0x0fc1_9dc6,
        0x240c_a1cc,
        0x2de9_2c6f,
        0x4a74_84aa,
        0x5cb0_a9dc,
        0x76f9_88da,
        0x983e_5152,
        0xa831_c66d,
        0xb003_27c8,
        0xbf59_7fc7,
        0xc6e0_0bf3,
        0xd5a7_9147,
        0x06ca_6351,
        0x1429_2967,
        0x27b7_0a85,
        0x2e1b_2138,
        0x4d2c_6dfc,
        0x5338_0d13,
        0x650a_7354,
        0x766a_0abb,
        0x81c2_c92e,
        0x9272_2c85,
        0xa2bf_e8a1,
        0xa81a_664b,
        0xc24b_8b70,
        0xc76c_51a3,
        0xd192_e819,
        0xd699_0624,
        0xf40e_3585,
        0x106a_a070,
        0x19a4_c116,
        0x1e37_6c08,
        0x2748_774c,
        0x34b0_bcb5,
        0x391c_0cb3,
        0x4ed8_aa4a,
        0x5b9c_ca4f,
        0x682e_6ff3,
        0x748f_82ee,
        0x78a5_636f,
        0x84c8_7814,
        0x8cc7_0208,
        0x90be_fffa,
        0xa450_6ceb,
        0xbef9_a3f7,
        0xc671_78f2,
    ];

    /// A `u32` as the `i32` the intrinsics take, bit for bit.
    const fn bits(word: u32) -> i32 {
        i32::from_ne_bytes(word.to_ne_bytes())
    }

    /// The ten blocks `base + k * step`, [`LANES`] at a time. The blocks
    /// are made in registers, so no block is stored and read back.
    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    pub(super) fn decade(state: &[u32; 8], base: &Block, step: &Block) -> [u32; 10] {
        let vector =
            |[w0, w1, w2, w3]: [u32; 4]| _mm_set_epi32(bits(w3), bits(w2), bits(w1), bits(w0));
        let step = step.map(vector);
        let mut block = base.map(vector);
        let mut out = [0; 10];
        for words in out.chunks_exact_mut(LANES) {
            let blocks = [(); LANES].map(|()| {
                let this = block;
                for (w, s) in block.iter_mut().zip(step) {
                    *w = _mm_add_epi32(*w, s);
                }
                this
            });
            words.copy_from_slice(&compress(state, blocks));
        }
        out
    }

    /// Each block's compression from `state`, the lanes' rounds interleaved;
    /// the first word of each result.
    #[inline]
    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    fn compress(state: &[u32; 8], mut w: [[__m128i; 4]; LANES]) -> [u32; LANES] {
        // The state as the SHA instructions hold it: (a, b, e, f) and
        // (c, d, g, h), highest lane first.
        let [a, b, c, d, e, f, g, h] = state.map(bits);
        let abef = _mm_set_epi32(a, b, e, f);
        let cdgh = _mm_set_epi32(c, d, g, h);
        let mut abefs = [abef; LANES];
        let mut cdghs = [cdgh; LANES];

        for r in 0..16 {
            let k = _mm_set_epi32(
                bits(K[4 * r + 3]),
                bits(K[4 * r + 2]),
                bits(K[4 * r + 1]),
                bits(K[4 * r]),
            );
            for lane in 0..LANES {
                // The four message words in use, oldest first; each round
                // takes the oldest (or, from round 4 on, four new ones made
                // from all four) and moves it to the back.
                let [w0, w1, w2, w3] = w[lane];
                let next = if r < 4 {
                    w0
                } else {
                    let early = _mm_sha256msg1_epu32(w0, w1);
                    let middle = _mm_alignr_epi8(w3, w2, 4);
                    _mm_sha256msg2_epu32(_mm_add_epi32(early, middle), w3)
                };
                w[lane] = [w1, w2, w3, next];
                let wk = _mm_add_epi32(next, k);
                cdghs[lane] = _mm_sha256rnds2_epu32(cdghs[lane], abefs[lane], wk);
                let wk_high = _mm_shuffle_epi32(wk, 0x0e);
                abefs[lane] = _mm_sha256rnds2_epu32(abefs[lane], cdghs[lane], wk_high);
            }
        }
        // `a` is the highest 32-bit lane of (a, b, e, f); the feed-forward
        // adds the starting `a`. The other words are not needed.
        abefs.map(|abef| {
            u32::from_ne_bytes(_mm_extract_epi32(abef, 3).to_ne_bytes()).wrapping_add(state[0])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 64 varied bytes from a small generator.
    fn block(seed: u64) -> [u8; 64] {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        std::array::from_fn(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x.to_le_bytes()[0]
        })
    }

    #[test]
    fn words_and_bytes_are_inverse() {
        for seed in 0..100 {
            let bytes_in = block(seed);
            assert_eq!(bytes(&words(&bytes_in)), bytes_in);
        }
    }

    #[test]
    fn a_decade_is_ten_sha2_compressions() {
        let mut state = crate::dice::SHA256_INIT;
        for seed in 0..300 {
            let base = block(seed);
            // A one at some byte (a last digit), and a step with every word
            // set, which wraps.
            let mut unit = [0; 64];
            unit[(seed % 64) as usize] = 1;
            for step in [unit, block(seed + 1000)] {
                let expected: Vec<u32> = (0..10u32)
                    .map(|k| {
                        let mut block = words(&base);
                        for (w, s) in block
                            .as_flattened_mut()
                            .iter_mut()
                            .zip(words(&step).as_flattened())
                        {
                            *w = w.wrapping_add(s.wrapping_mul(k));
                        }
                        let mut after = state;
                        compress256(&mut after, &[bytes(&block)]);
                        after[0]
                    })
                    .collect();
                assert_eq!(
                    decade(&state, &words(&base), &words(&step)).to_vec(),
                    expected
                );
                assert_eq!(
                    portable(&state, &words(&base), &words(&step)).to_vec(),
                    expected
                );
            }
            // A different starting state next time, as after a long seed.
            compress256(&mut state, &[base]);
        }
    }
}
