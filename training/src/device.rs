//! Choice of the device tensors live on.

use tch::Device;

/// The fastest device available: the first CUDA GPU when libtorch sees one,
/// the CPU otherwise.
pub fn best_device() -> Device {
    if tch::Cuda::is_available() {
        Device::Cuda(0)
    } else {
        Device::Cpu
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tch::{Kind, Tensor};

    #[test]
    fn matmul_and_backward_on_best_device() {
        let device = best_device();

        // [[1, 2], [3, 4]] x [[5, 6], [7, 8]] = [[19, 22], [43, 50]]
        let a = Tensor::from_slice(&[1.0f32, 2.0, 3.0, 4.0])
            .view([2, 2])
            .to_device(device);
        let b = Tensor::from_slice(&[5.0f32, 6.0, 7.0, 8.0])
            .view([2, 2])
            .to_device(device);
        let c = a.matmul(&b).to_device(Device::Cpu);
        let got: Vec<f32> = Vec::try_from(c.flatten(0, -1)).unwrap();
        assert_eq!(got, vec![19.0, 22.0, 43.0, 50.0]);

        // d/dx sum(x * x) = 2x
        let xs = [-1.5f32, 0.0, 0.5, 2.0, 3.25];
        let x = Tensor::from_slice(&xs)
            .to_device(device)
            .set_requires_grad(true);
        let loss = (&x * &x).sum(Kind::Float);
        loss.backward();
        let grad: Vec<f32> = Vec::try_from(x.grad().to_device(Device::Cpu)).unwrap();
        assert_eq!(grad.len(), xs.len());
        for (g, v) in grad.iter().zip(xs) {
            assert!((g - 2.0 * v).abs() < 1e-6, "grad {g} != 2 * {v}");
        }
        let loss: f64 = loss.double_value(&[]);
        let want: f64 = xs.iter().map(|v| f64::from(v * v)).sum();
        assert!((loss - want).abs() < 1e-5, "loss {loss} != {want}");
    }
}
