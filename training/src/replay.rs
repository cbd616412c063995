//! The replay buffer: a ring of training positions in flat arrays, sampled uniformly.

use rand::Rng;
use tch::{Device, Kind, Tensor};

/// One training position with its targets.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The observation (mover's view).
    pub obs: Vec<f32>,
    /// The improved policy `pi'` of the search (0 on illegal actions).
    pub policy: Vec<f32>,
    /// The legal actions.
    pub mask: u64,
    /// The game's result from the mover's view (+1, 0, -1).
    pub value: f32,
    /// The final seed difference from the mover's view over half the seeds, in [-1, 1].
    pub score: f32,
    /// 1 when the policy target comes from a full search, 0 after a cheap one.
    pub policy_weight: f32,
    /// 1 when the game ended by the rules, 0 when it was cut by the ply cap.
    pub value_weight: f32,
}

/// A minibatch as tensors on one device.
pub struct Batch {
    pub obs: Tensor,
    pub policy: Tensor,
    pub mask: Tensor,
    pub value: Tensor,
    pub score: Tensor,
    pub policy_weight: Tensor,
    pub value_weight: Tensor,
}

/// A ring buffer of the last `capacity` positions.
pub struct ReplayBuffer {
    pub capacity: usize,
    pub obs_len: usize,
    pub actions: usize,
    /// Positions ever added.
    pub added: u64,
    obs: Vec<f32>,
    policy: Vec<f32>,
    mask: Vec<f32>,
    scalars: Vec<[f32; 4]>,
}

impl ReplayBuffer {
    pub fn new(capacity: usize, obs_len: usize, actions: usize) -> Self {
        ReplayBuffer {
            capacity,
            obs_len,
            actions,
            added: 0,
            obs: Vec::new(),
            policy: Vec::new(),
            mask: Vec::new(),
            scalars: Vec::new(),
        }
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.scalars.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scalars.is_empty()
    }

    pub fn push(&mut self, s: &Sample) {
        debug_assert_eq!(s.obs.len(), self.obs_len);
        let mask: Vec<f32> = (0..self.actions)
            .map(|a| (s.mask >> a & 1) as f32)
            .collect();
        let scalars = [s.value, s.score, s.policy_weight, s.value_weight];
        if self.len() < self.capacity {
            self.obs.extend_from_slice(&s.obs);
            self.policy.extend_from_slice(&s.policy);
            self.mask.extend_from_slice(&mask);
            self.scalars.push(scalars);
        } else {
            let i = (self.added % self.capacity as u64) as usize;
            self.obs[i * self.obs_len..(i + 1) * self.obs_len].copy_from_slice(&s.obs);
            self.policy[i * self.actions..(i + 1) * self.actions].copy_from_slice(&s.policy);
            self.mask[i * self.actions..(i + 1) * self.actions].copy_from_slice(&mask);
            self.scalars[i] = scalars;
        }
        self.added += 1;
    }

    /// `n` positions drawn uniformly with replacement.
    pub fn sample(&self, n: usize, rng: &mut impl Rng, device: Device) -> Batch {
        let (o, a) = (self.obs_len, self.actions);
        let mut obs = Vec::with_capacity(n * o);
        let mut policy = Vec::with_capacity(n * a);
        let mut mask = Vec::with_capacity(n * a);
        let mut sc: [Vec<f32>; 4] = Default::default();
        for _ in 0..n {
            let i = rng.gen_range(0..self.len());
            obs.extend_from_slice(&self.obs[i * o..(i + 1) * o]);
            policy.extend_from_slice(&self.policy[i * a..(i + 1) * a]);
            mask.extend_from_slice(&self.mask[i * a..(i + 1) * a]);
            for (k, v) in sc.iter_mut().enumerate() {
                v.push(self.scalars[i][k]);
            }
        }
        let t = |v: &[f32], cols: i64| {
            Tensor::from_slice(v)
                .view([n as i64, cols])
                .to_device(device)
        };
        let s = |v: &[f32]| Tensor::from_slice(v).to_device(device);
        Batch {
            obs: t(&obs, o as i64),
            policy: t(&policy, a as i64),
            mask: t(&mask, a as i64).to_kind(Kind::Bool),
            value: s(&sc[0]),
            score: s(&sc[1]),
            policy_weight: s(&sc[2]),
            value_weight: s(&sc[3]),
        }
    }

    /// The buffer's contents as named tensors (for exact resume).
    pub fn to_tensors(&self) -> Vec<(String, Tensor)> {
        let n = self.len() as i64;
        let flat: Vec<f32> = self.scalars.iter().flatten().copied().collect();
        vec![
            (
                "buffer.obs".into(),
                Tensor::from_slice(&self.obs).view([n, self.obs_len as i64]),
            ),
            (
                "buffer.policy".into(),
                Tensor::from_slice(&self.policy).view([n, self.actions as i64]),
            ),
            (
                "buffer.mask".into(),
                Tensor::from_slice(&self.mask).view([n, self.actions as i64]),
            ),
            (
                "buffer.scalars".into(),
                Tensor::from_slice(&flat).view([n, 4]),
            ),
            (
                "buffer.added".into(),
                Tensor::from_slice(&[self.added as i64]),
            ),
        ]
    }

    /// Restores [`ReplayBuffer::to_tensors`]; `None` when a tensor is missing or misshapen.
    pub fn from_tensors(
        capacity: usize,
        obs_len: usize,
        actions: usize,
        named: &[(String, Tensor)],
    ) -> Option<Self> {
        let get = |name: &str| named.iter().find(|(n, _)| n == name).map(|(_, t)| t);
        let vec = |t: &Tensor| Vec::<f32>::try_from(t.to_kind(Kind::Float).flatten(0, -1)).ok();
        let obs = vec(get("buffer.obs")?)?;
        let policy = vec(get("buffer.policy")?)?;
        let mask = vec(get("buffer.mask")?)?;
        let flat = vec(get("buffer.scalars")?)?;
        let added = get("buffer.added")?.int64_value(&[0]) as u64;
        let n = flat.len() / 4;
        if obs.len() != n * obs_len
            || policy.len() != n * actions
            || mask.len() != n * actions
            || n > capacity
        {
            return None;
        }
        let scalars = flat.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
        Some(ReplayBuffer {
            capacity,
            obs_len,
            actions,
            added,
            obs,
            policy,
            mask,
            scalars,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn sample(x: f32) -> Sample {
        Sample {
            obs: vec![x; 3],
            policy: vec![x, 1.0 - x],
            mask: 0b11,
            value: x,
            score: 0.0,
            policy_weight: 1.0,
            value_weight: 1.0,
        }
    }

    #[test]
    fn ring_overwrites_the_oldest_and_round_trips() {
        let mut b = ReplayBuffer::new(3, 3, 2);
        for i in 0..5 {
            b.push(&sample(i as f32 / 10.0));
        }
        assert_eq!(b.len(), 3);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let batch = b.sample(50, &mut rng, Device::Cpu);
        let v: Vec<f32> = Vec::try_from(batch.value).unwrap();
        assert!(
            v.iter().all(|&x| x >= 0.15),
            "oldest positions were overwritten: {v:?}"
        );
        let c = ReplayBuffer::from_tensors(3, 3, 2, &b.to_tensors()).unwrap();
        assert_eq!((c.obs, c.scalars, c.added), (b.obs, b.scalars, b.added));
    }
}
