//! The trainer: AdamW written out over the network's variables (so its moments can be saved
//! for exact resume), a warm-up + cosine learning-rate schedule, and the AlphaZero losses.
//!
//! With `ema_decay` the trainer also keeps a moving average of the weights, which the
//! checkpoints hold ([`Trainer::saved_net`]).
//!
//! Loss = cross-entropy(pi', masked softmax of the logits) (positions from full searches only)
//!      + value_weight · MSE(value, z) + score_weight · MSE(score, final seed difference)
//!        (positions of games that ended by the rules only).

use crate::config::TrainConfig;
use crate::net::Net;
use crate::replay::Batch;
use tch::{Device, Kind, Tensor};

const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPS: f64 = 1e-8;

/// The losses of one training step.
#[derive(Clone, Copy, Debug, Default)]
pub struct Losses {
    pub policy: f64,
    pub value: f64,
    pub score: f64,
    pub total: f64,
    /// The policy's entropy on the batch.
    pub entropy: f64,
    pub lr: f64,
}

/// The network being trained and its optimiser state.
pub struct Trainer {
    pub net: Net,
    names: Vec<String>,
    vars: Vec<Tensor>,
    m: Vec<Tensor>,
    v: Vec<Tensor>,
    /// Training steps taken.
    pub step: u64,
    /// The moving average of the weights (`ema_decay`), when on.
    average: Option<Average>,
}

/// An exponential moving average of the trained weights: a network of the same shape and its
/// variables in the trainer's order.
struct Average {
    net: Net,
    vars: Vec<Tensor>,
    decay: f64,
}

/// The learning rate after `step` training steps: linear warm-up over `warmup_steps`, then
/// cosine from `lr` to `lr_min` over `decay_steps` steps (constant when it is 0).
pub fn learning_rate(cfg: &TrainConfig, step: u64) -> f64 {
    if step < cfg.warmup_steps {
        return cfg.lr * (step + 1) as f64 / cfg.warmup_steps as f64;
    }
    if cfg.decay_steps == 0 {
        return cfg.lr;
    }
    let t = ((step - cfg.warmup_steps) as f64 / cfg.decay_steps as f64).clamp(0.0, 1.0);
    cfg.lr_min + (cfg.lr - cfg.lr_min) * 0.5 * (1.0 + (std::f64::consts::PI * t).cos())
}

impl Trainer {
    pub fn new(net: Net) -> Trainer {
        let named = sorted_vars(&net);
        let m = named.iter().map(|(_, t)| t.zeros_like()).collect();
        let v = named.iter().map(|(_, t)| t.zeros_like()).collect();
        let (names, vars) = named.into_iter().unzip();
        Trainer {
            net,
            names,
            vars,
            m,
            v,
            step: 0,
            average: None,
        }
    }

    /// Keeps a moving average of the weights with factor `decay` (`ema_decay`; 0 keeps none),
    /// starting from the weights as they are.
    pub fn averaging(mut self, decay: f64) -> Trainer {
        if decay > 0.0 {
            let net = self.net.duplicate().expect("same shape");
            let vars = sorted_vars(&net).into_iter().map(|(_, t)| t).collect();
            self.average = Some(Average { net, vars, decay });
        }
        self
    }

    /// The network the checkpoints hold: the moving average of the weights when the trainer
    /// keeps one, the trained weights otherwise.
    pub fn saved_net(&self) -> &Net {
        self.average.as_ref().map_or(&self.net, |a| &a.net)
    }

    /// One AdamW step on `batch`.
    pub fn train_step(&mut self, batch: &Batch, cfg: &TrainConfig) -> Losses {
        let out = self.net.forward(&batch.obs);
        let masked = out.logits.masked_fill(&batch.mask.logical_not(), -1e9);
        let logp = masked.log_softmax(-1, Kind::Float);
        let ce = -(&batch.policy * &logp).sum_dim_intlist(-1, false, Kind::Float);
        let entropy = -(logp.exp() * &logp).sum_dim_intlist(-1, false, Kind::Float);
        let wp_sum = batch.policy_weight.sum(Kind::Float).clamp_min(1.0);
        let wv_sum = batch.value_weight.sum(Kind::Float).clamp_min(1.0);
        let policy_loss = (&ce * &batch.policy_weight).sum(Kind::Float) / &wp_sum;
        let value_loss =
            ((&out.value - &batch.value).square() * &batch.value_weight).sum(Kind::Float) / &wv_sum;
        let score_loss =
            ((&out.score - &batch.score).square() * &batch.value_weight).sum(Kind::Float) / &wv_sum;
        let total = &policy_loss + &value_loss * cfg.value_weight + &score_loss * cfg.score_weight;

        for p in &mut self.vars {
            p.zero_grad();
        }
        total.backward();
        let lr = learning_rate(cfg, self.step);
        self.step += 1;
        let t = self.step as i32;
        let (bc1, bc2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
        tch::no_grad(|| {
            for ((p, m), v) in self.vars.iter_mut().zip(&mut self.m).zip(&mut self.v) {
                let g = p.grad();
                if !g.defined() {
                    continue;
                }
                *m *= BETA1;
                *m += &g * (1.0 - BETA1);
                *v *= BETA2;
                *v += g.square() * (1.0 - BETA2);
                let update = (&*m / bc1) / ((&*v / bc2).sqrt() + EPS);
                *p *= 1.0 - lr * cfg.weight_decay;
                *p -= update * lr;
            }
            if let Some(avg) = &mut self.average {
                let d = avg.decay.min((1.0 + t as f64) / (10.0 + t as f64));
                for (a, p) in avg.vars.iter_mut().zip(&self.vars) {
                    // a ← a + (1 − d)(p − a) = d·a + (1 − d)·p, in place.
                    let _ = a.lerp_(p, 1.0 - d);
                }
            }
        });
        Losses {
            policy: policy_loss.double_value(&[]),
            value: value_loss.double_value(&[]),
            score: score_loss.double_value(&[]),
            total: total.double_value(&[]),
            entropy: (entropy * &batch.policy_weight)
                .sum(Kind::Float)
                .double_value(&[])
                / wp_sum.double_value(&[]),
            lr,
        }
    }

    /// The optimiser's moments and the weights' average by name (for exact resume).
    pub fn optimizer_tensors(&self) -> Vec<(String, Tensor)> {
        let mut out = Vec::new();
        for (i, n) in self.names.iter().enumerate() {
            out.push((format!("adam.m.{n}"), self.m[i].to_device(Device::Cpu)));
            out.push((format!("adam.v.{n}"), self.v[i].to_device(Device::Cpu)));
            if let Some(avg) = &self.average {
                out.push((format!("ema.{n}"), avg.vars[i].to_device(Device::Cpu)));
            }
        }
        out
    }

    /// Restores [`Trainer::optimizer_tensors`]; the name of a missing or misshapen tensor otherwise.
    pub fn load_optimizer(&mut self, named: &[(String, Tensor)]) -> Result<(), String> {
        for (i, n) in self.names.iter().enumerate() {
            let mut state = vec![("adam.m", &mut self.m[i]), ("adam.v", &mut self.v[i])];
            if let Some(avg) = &mut self.average {
                state.push(("ema", &mut avg.vars[i]));
            }
            for (kind, dst) in state {
                let key = format!("{kind}.{n}");
                let src = named
                    .iter()
                    .find(|(k, _)| *k == key)
                    .ok_or_else(|| key.clone())?;
                if src.1.size() != dst.size() {
                    return Err(key);
                }
                tch::no_grad(|| dst.copy_(&src.1));
            }
        }
        Ok(())
    }
}

/// The network's variables, sorted by name.
fn sorted_vars(net: &Net) -> Vec<(String, Tensor)> {
    let mut named: Vec<(String, Tensor)> = net.vs.variables().into_iter().collect();
    named.sort_by(|a, b| a.0.cmp(&b.0));
    named
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::NetShape;
    use crate::replay::{ReplayBuffer, Sample};
    use rand::SeedableRng;

    #[test]
    fn learns_a_fixed_target() {
        tch::manual_seed(0);
        let net = Net::new(
            NetShape {
                inputs: 3,
                actions: 2,
                width: 16,
                blocks: 1,
                levels: 0,
                lookahead: 0,
            },
            Device::Cpu,
        );
        let mut t = Trainer::new(net);
        let mut buf = ReplayBuffer::new(8, 3, 2);
        buf.push(&Sample {
            obs: vec![1.0, 0.0, 0.5],
            policy: vec![0.9, 0.1],
            mask: 0b11,
            value: 0.5,
            score: -0.25,
            policy_weight: 1.0,
            value_weight: 1.0,
        });
        let cfg = TrainConfig {
            lr: 1e-2,
            warmup_steps: 1,
            ..Default::default()
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        let first = t.train_step(&buf.sample(4, &mut rng, Device::Cpu), &cfg);
        let mut last = first;
        for _ in 0..200 {
            last = t.train_step(&buf.sample(4, &mut rng, Device::Cpu), &cfg);
        }
        // The policy loss cannot go below the target's entropy (0.325).
        assert!(
            last.policy < 0.34 && last.value < 1e-3 && last.score < 1e-3,
            "{first:?} -> {last:?}"
        );
    }

    #[test]
    fn the_saved_network_is_the_moving_average_of_the_trained_weights() {
        tch::manual_seed(1);
        let shape = NetShape {
            inputs: 3,
            actions: 2,
            width: 8,
            blocks: 1,
            levels: 0,
            lookahead: 0,
        };
        let decay = 0.8;
        let mut t = Trainer::new(Net::new(shape, Device::Cpu)).averaging(decay);
        let mut buf = ReplayBuffer::new(8, 3, 2);
        buf.push(&Sample {
            obs: vec![0.0, 1.0, 0.5],
            policy: vec![0.2, 0.8],
            mask: 0b11,
            value: -0.5,
            score: 0.5,
            policy_weight: 1.0,
            value_weight: 1.0,
        });
        let cfg = TrainConfig {
            lr: 1e-2,
            warmup_steps: 1,
            ema_decay: decay,
            ..Default::default()
        };
        let flat = |net: &Net| -> Vec<f32> {
            let parts: Vec<Tensor> = sorted_vars(net)
                .into_iter()
                .map(|(_, v)| v.detach().flatten(0, -1))
                .collect();
            Vec::try_from(Tensor::cat(&parts, 0)).unwrap()
        };
        // The average by its definition, from the weights after each step.
        let mut expected = flat(&t.net);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for step in 1..=40 {
            t.train_step(&buf.sample(4, &mut rng, Device::Cpu), &cfg);
            let d = decay.min((1.0 + step as f64) / (10.0 + step as f64)) as f32;
            for (a, w) in expected.iter_mut().zip(flat(&t.net)) {
                *a = d * *a + (1.0 - d) * w;
            }
        }
        let (saved, trained) = (flat(t.saved_net()), flat(&t.net));
        for (s, e) in saved.iter().zip(&expected) {
            assert!((s - e).abs() < 1e-5, "average {s}, expected {e}");
        }
        let apart = saved.iter().zip(&trained).map(|(s, w)| (s - w).abs());
        assert!(
            apart.fold(0.0, f32::max) > 1e-3,
            "the average lags the weights"
        );
        // Without averaging, the checkpoints hold the trained weights.
        let plain = Trainer::new(Net::new(shape, Device::Cpu));
        assert_eq!(flat(plain.saved_net()), flat(&plain.net));
    }

    #[test]
    fn schedule_warms_up_then_decays() {
        let cfg = TrainConfig {
            lr: 1.0,
            lr_min: 0.1,
            warmup_steps: 10,
            decay_steps: 100,
            ..Default::default()
        };
        assert!((learning_rate(&cfg, 0) - 0.1).abs() < 1e-12);
        assert!((learning_rate(&cfg, 10) - 1.0).abs() < 1e-12);
        assert!((learning_rate(&cfg, 60) - 0.55).abs() < 1e-12);
        assert!((learning_rate(&cfg, 500) - 0.1).abs() < 1e-12);
    }
}
