//! The network itself (libtorch): see the module's documentation in `net/mod.rs`.

use super::{NetShape, Network};
use tch::{nn, nn::Module, Device, Kind, Tensor};

/// What the network says about a batch of positions.
pub struct NetOutput {
    /// Unmasked policy logits, `[batch, actions]`.
    pub logits: Tensor,
    /// Value from the mover's view in (-1, 1), `[batch]`.
    pub value: Tensor,
    /// Predicted final seed difference (mover minus opponent) over half the seeds, `[batch]`.
    pub score: Tensor,
}

/// A residual MLP with its variables in a `VarStore`.
pub struct Net {
    pub vs: nn::VarStore,
    pub shape: NetShape,
    /// `0, 1, …, levels − 1` (not a variable), when the shape has levels.
    thresholds: Option<Tensor>,
    input: nn::Linear,
    blocks: Vec<(nn::Linear, nn::Linear)>,
    policy: nn::Linear,
    value: nn::Linear,
    score: nn::Linear,
}

impl Net {
    /// A freshly initialised network on `device` (torch's default initialisation; the last layer
    /// of each residual block starts small so the trunk starts close to the identity).
    pub fn new(shape: NetShape, device: Device) -> Net {
        let vs = nn::VarStore::new(device);
        let root = vs.root();
        let input = nn::linear(
            &root / "input",
            shape.input_features() as i64,
            shape.width as i64,
            Default::default(),
        );
        let thresholds =
            (shape.levels > 0).then(|| Tensor::arange(shape.levels as i64, (Kind::Float, device)));
        let w = shape.width as i64;
        let blocks = (0..shape.blocks)
            .map(|i| {
                let b = &root / format!("block{i}");
                let small = nn::LinearConfig {
                    ws_init: nn::Init::Randn {
                        mean: 0.0,
                        stdev: 0.1 / (w as f64).sqrt(),
                    },
                    ..Default::default()
                };
                (
                    nn::linear(&b / "a", w, w, Default::default()),
                    nn::linear(&b / "b", w, w, small),
                )
            })
            .collect();
        let policy = nn::linear(
            &root / "policy",
            w,
            shape.actions as i64,
            Default::default(),
        );
        let value = nn::linear(&root / "value", w, 1, Default::default());
        let score = nn::linear(&root / "score", w, 1, Default::default());
        Net {
            vs,
            shape,
            thresholds,
            input,
            blocks,
            policy,
            value,
            score,
        }
    }

    /// The first layer's input for `obs` of shape `[batch, inputs]`: the observation, then its
    /// thermometer code when the shape has levels (`[batch, input_features]`).
    pub fn features(&self, obs: &Tensor) -> Tensor {
        match &self.thresholds {
            Some(t) => {
                let code = (obs.unsqueeze(-1) * 4.0 - t).clamp(0.0, 1.0).flatten(1, 2);
                Tensor::cat(&[obs, &code], 1)
            }
            None => obs.shallow_clone(),
        }
    }

    /// The network's outputs for `obs` of shape `[batch, inputs]`.
    pub fn forward(&self, obs: &Tensor) -> NetOutput {
        let mut h = self.input.forward(&self.features(obs)).relu();
        for (a, b) in &self.blocks {
            h = (&h + b.forward(&a.forward(&h).relu())).relu();
        }
        NetOutput {
            logits: self.policy.forward(&h),
            value: self.value.forward(&h).squeeze_dim(-1).tanh(),
            score: self.score.forward(&h).squeeze_dim(-1).tanh(),
        }
    }

    /// A new network of the same shape, on the same device, with a copy of these weights.
    pub fn duplicate(&self) -> Result<Net, tch::TchError> {
        let mut copy = Net::new(self.shape, self.vs.device());
        copy.copy_from(self)?;
        Ok(copy)
    }

    /// Copies every variable of `other` (same shape) into this network.
    pub fn copy_from(&mut self, other: &Net) -> Result<(), tch::TchError> {
        self.vs.copy(&other.vs)
    }

    /// Number of trainable parameters.
    pub fn num_parameters(&self) -> usize {
        self.vs
            .trainable_variables()
            .iter()
            .map(|t| t.numel())
            .sum()
    }
}

impl Network for Net {
    fn shape(&self) -> NetShape {
        self.shape
    }

    /// Inference on plain buffers: `obs` holds `n` rows of `inputs` floats; writes `n` rows of
    /// `actions` logits and `n` values, and the score head's `n` outputs into `scores` when
    /// given. No gradient is recorded.
    fn evaluate(
        &self,
        obs: &[f32],
        n: usize,
        logits: &mut [f32],
        values: &mut [f32],
        scores: Option<&mut [f32]>,
    ) {
        debug_assert_eq!(obs.len(), n * self.shape.inputs);
        if n == 0 {
            return;
        }
        let device = self.vs.device();
        let out = tch::no_grad(|| {
            let x = Tensor::from_slice(obs)
                .view([n as i64, self.shape.inputs as i64])
                .to_device(device);
            self.forward(&x)
        });
        // Each output as a contiguous float tensor on the CPU, copied into its buffer.
        let copy = |t: &Tensor, into: &mut [f32]| {
            let len = into.len();
            t.to_device(Device::Cpu)
                .to_kind(Kind::Float)
                .contiguous()
                .view([-1])
                .copy_data(into, len)
        };
        copy(&out.logits, &mut logits[..n * self.shape.actions]);
        copy(&out.value, &mut values[..n]);
        if let Some(scores) = scores {
            copy(&out.score, &mut scores[..n]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_and_ranges() {
        let net = Net::new(
            NetShape {
                inputs: 14,
                actions: 6,
                width: 32,
                blocks: 2,
                levels: 0,
                lookahead: 0,
            },
            Device::Cpu,
        );
        let x = Tensor::rand([5, 14], (Kind::Float, Device::Cpu));
        let out = net.forward(&x);
        assert_eq!(out.logits.size(), vec![5, 6]);
        assert_eq!(out.value.size(), vec![5]);
        let v: Vec<f32> = Vec::try_from(out.value).unwrap();
        assert!(v.iter().all(|x| x.abs() < 1.0));
        let obs = vec![0.25f32; 2 * 14];
        let (mut l, mut val) = (vec![0.0; 12], vec![0.0; 2]);
        net.evaluate(&obs, 2, &mut l, &mut val, None);
        // Rows of one matrix product may be summed in another order: equal up to rounding.
        for (a, b) in l[..6].iter().zip(&l[6..]) {
            assert!((a - b).abs() < 1e-5, "same observation, same logits: {l:?}");
        }
    }

    #[test]
    fn thermometer_levels_tell_seed_counts_apart() {
        let shape = NetShape {
            inputs: 2,
            actions: 2,
            width: 4,
            blocks: 0,
            levels: 3,
            lookahead: 0,
        };
        let net = Net::new(shape, Device::Cpu);
        assert_eq!(shape.input_features(), 8);
        // 0, 1 and 2 seeds (x = seeds / 4) and a half-way value.
        let obs = Tensor::from_slice(&[0.0f32, 0.25, 0.5, 0.125]).view([2, 2]);
        let features = net.features(&obs);
        assert_eq!(features.size(), vec![2, 8]);
        let got: Vec<f32> = Vec::try_from(features.flatten(0, -1)).unwrap();
        assert_eq!(
            got,
            vec![
                0.0, 0.25, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, // 0 and 1 seeds
                0.5, 0.125, 1.0, 1.0, 0.0, 0.5, 0.0, 0.0, // 2 seeds and half a seed
            ]
        );
        let out = net.forward(&obs);
        assert_eq!(out.logits.size(), vec![2, 2]);
    }
}
