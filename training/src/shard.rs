//! A shard: one batch of self-play positions written by a worker as one immutable object, read
//! by the learner. Little-endian binary with a CRC-32 of everything before it, so that a
//! truncated or corrupted shard is refused whole, never half-read:
//!
//! ```text
//! "AYOSHARD"  u32 version  u32 obs_len  u32 actions  u64 model_step  u32 games  u32 count
//! count × ( obs_len × f32 · actions × f32 policy · u64 mask · f32 value · score · policy_weight · value_weight )
//! u32 crc32
//! ```

use crate::replay::Sample;

const MAGIC: &[u8; 8] = b"AYOSHARD";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 * 3 + 8 + 4 * 2;

/// A batch of positions and where they came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Shard {
    /// The training step of the network that played them.
    pub model_step: u64,
    /// Games that ended in the batch.
    pub games: u32,
    pub samples: Vec<Sample>,
}

/// Why a shard was refused.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ShardError {
    #[error("shard {name}: {reason}")]
    Bad { name: String, reason: String },
}

impl Shard {
    /// The shard's bytes for observations of `obs_len` and `actions` actions.
    pub fn encode(&self, obs_len: usize, actions: usize) -> Vec<u8> {
        let per = 4 * (obs_len + actions) + 8 + 16;
        let mut b = Vec::with_capacity(HEADER + self.samples.len() * per + 4);
        b.extend_from_slice(MAGIC);
        for x in [VERSION, obs_len as u32, actions as u32] {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b.extend_from_slice(&self.model_step.to_le_bytes());
        b.extend_from_slice(&self.games.to_le_bytes());
        b.extend_from_slice(&(self.samples.len() as u32).to_le_bytes());
        for s in &self.samples {
            assert_eq!(
                (s.obs.len(), s.policy.len()),
                (obs_len, actions),
                "sample shape"
            );
            for x in s.obs.iter().chain(&s.policy) {
                b.extend_from_slice(&x.to_le_bytes());
            }
            b.extend_from_slice(&s.mask.to_le_bytes());
            for x in [s.value, s.score, s.policy_weight, s.value_weight] {
                b.extend_from_slice(&x.to_le_bytes());
            }
        }
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    }

    /// Reads the shard `name` from `bytes`, checking its checksum and that its positions have
    /// the shapes `obs_len` and `actions` of the run.
    pub fn decode(
        name: &str,
        bytes: &[u8],
        obs_len: usize,
        actions: usize,
    ) -> Result<Shard, ShardError> {
        let bad = |reason: String| ShardError::Bad {
            name: name.to_string(),
            reason,
        };
        if bytes.len() < HEADER + 4 || &bytes[..8] != MAGIC {
            return Err(bad(format!(
                "not a shard ({} bytes, no AYOSHARD header)",
                bytes.len()
            )));
        }
        let (body, tail) = bytes.split_at(bytes.len() - 4);
        let crc = u32::from_le_bytes(tail.try_into().expect("4 bytes"));
        if crc32fast::hash(body) != crc {
            return Err(bad("checksum mismatch: truncated or corrupted".into()));
        }
        let u32_at = |i: usize| u32::from_le_bytes(body[i..i + 4].try_into().expect("4 bytes"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(bad(format!("version {version}, expected {VERSION}")));
        }
        let (o, a) = (u32_at(12) as usize, u32_at(16) as usize);
        if (o, a) != (obs_len, actions) {
            return Err(bad(format!(
                "positions of {o} observation values and {a} actions, expected {obs_len} and {actions}: a shard of another variant"
            )));
        }
        let model_step = u64::from_le_bytes(body[20..28].try_into().expect("8 bytes"));
        let games = u32_at(28);
        let count = u32_at(32) as usize;
        let per = 4 * (o + a) + 8 + 16;
        if body.len() != HEADER + count * per {
            return Err(bad(format!(
                "{} bytes for {count} positions, expected {}",
                body.len(),
                HEADER + count * per
            )));
        }
        let f = |i: usize| f32::from_le_bytes(body[i..i + 4].try_into().expect("4 bytes"));
        let samples = (0..count)
            .map(|k| {
                let at = HEADER + k * per;
                let obs = (0..o).map(|j| f(at + 4 * j)).collect();
                let policy = (0..a).map(|j| f(at + 4 * (o + j))).collect();
                let rest = at + 4 * (o + a);
                Sample {
                    obs,
                    policy,
                    mask: u64::from_le_bytes(body[rest..rest + 8].try_into().expect("8 bytes")),
                    value: f(rest + 8),
                    score: f(rest + 12),
                    policy_weight: f(rest + 16),
                    value_weight: f(rest + 20),
                }
            })
            .collect();
        Ok(Shard {
            model_step,
            games,
            samples,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard() -> Shard {
        let sample = |k: f32| Sample {
            obs: vec![k, 0.25, 1.0],
            policy: vec![0.5, 0.5],
            mask: 0b11,
            value: -1.0,
            score: 0.125,
            policy_weight: 1.0,
            value_weight: 0.0,
        };
        Shard {
            model_step: 42,
            games: 2,
            samples: vec![sample(0.0), sample(3.5)],
        }
    }

    #[test]
    fn a_shard_round_trips() {
        let s = shard();
        assert_eq!(Shard::decode("x", &s.encode(3, 2), 3, 2).unwrap(), s);
    }

    #[test]
    fn truncated_corrupted_and_foreign_shards_are_refused() {
        let bytes = shard().encode(3, 2);
        for cut in [0, 10, bytes.len() / 2, bytes.len() - 1] {
            let e = Shard::decode("w-1", &bytes[..cut], 3, 2)
                .unwrap_err()
                .to_string();
            assert!(e.contains("shard w-1"), "{e}");
        }
        let mut flipped = bytes.clone();
        flipped[HEADER + 5] ^= 1;
        let e = Shard::decode("w-1", &flipped, 3, 2)
            .unwrap_err()
            .to_string();
        assert!(e.contains("checksum"), "{e}");
        let e = Shard::decode("w-1", &bytes, 4, 2).unwrap_err().to_string();
        assert!(e.contains("another variant"), "{e}");
    }
}
