//! The dense layer of [`super::CpuNet`] for the small batches a search asks for (one position,
//! or the five or six children of a node at alpha-beta's horizon), where a general matrix
//! product spends most of its time copying the weights into its own layout: here each block of
//! 16 outputs is computed for up to [`ROWS`] positions at once, straight from the weights,
//! with AVX2 and FMA where the processor has them (checked once, at run time) and plain loops
//! elsewhere. Both compute the same sums; a test holds them together.

/// Positions computed together: their accumulators and a block's two weight vectors fill the
/// 16 vector registers of AVX2.
pub const ROWS: usize = 6;
/// Outputs computed together (two vectors of eight; with AVX-512, [`WIDE`]: two of 16).
const BLOCK: usize = 16;
const WIDE: usize = 32;

/// A dense layer `y = relu?(x · W + b + residual)`, its weights stored input by input
/// (`inputs × outputs`, row-major).
pub struct Dense {
    pub inputs: usize,
    pub outputs: usize,
    pub w_t: Vec<f32>,
    pub b: Vec<f32>,
    simd: Simd,
}

/// The instructions a [`Dense`] layer runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Simd {
    None,
    Avx2,
    Avx512,
}

impl Dense {
    /// `w_t`: `inputs × outputs`, row-major; `b`: `outputs`.
    pub fn new(inputs: usize, outputs: usize, w_t: Vec<f32>, b: Vec<f32>) -> Dense {
        assert_eq!((w_t.len(), b.len()), (inputs * outputs, outputs));
        Dense {
            inputs,
            outputs,
            w_t,
            b,
            simd: simd_available(),
        }
    }

    /// `y` (`n × outputs`) from `x` (`n × inputs`), plus `residual` (`n × outputs`) when
    /// given, through a ReLU when `relu`.
    pub fn forward(&self, x: &[f32], n: usize, residual: Option<&[f32]>, relu: bool) -> Vec<f32> {
        let (k, m) = (self.inputs, self.outputs);
        assert_eq!(x.len(), n * k);
        let mut y = vec![0.0; n * m];
        let mut r = 0;
        while r < n {
            let rows = (n - r).min(ROWS);
            let res = residual.map(|res| &res[r * m..(r + rows) * m]);
            let (x, y) = (&x[r * k..(r + rows) * k], &mut y[r * m..(r + rows) * m]);
            self.rows(x, rows, res, relu, y);
            r += rows;
        }
        y
    }

    /// At most [`ROWS`] rows.
    fn rows(&self, x: &[f32], rows: usize, res: Option<&[f32]>, relu: bool, y: &mut [f32]) {
        macro_rules! by_rows {
            ($kernel:ident, $($arg:expr),*) => {
                match rows {
                    1 => $kernel::<1>($($arg),*),
                    2 => $kernel::<2>($($arg),*),
                    3 => $kernel::<3>($($arg),*),
                    4 => $kernel::<4>($($arg),*),
                    5 => $kernel::<5>($($arg),*),
                    _ => $kernel::<6>($($arg),*),
                }
            };
        }
        #[cfg(target_arch = "x86_64")]
        match self.simd {
            Simd::Avx512 => {
                let blocks = self.outputs / WIDE * WIDE;
                // SAFETY: `Avx512` is chosen only where the processor has AVX-512F.
                unsafe { by_rows!(blocks_avx512, self, x, res, relu, y, blocks) };
                self.rest(x, rows, res, relu, y, blocks);
                return;
            }
            Simd::Avx2 => {
                let blocks = self.outputs / BLOCK * BLOCK;
                // SAFETY: `Avx2` is chosen only where the processor has AVX2 and FMA.
                unsafe { by_rows!(blocks_avx2, self, x, res, relu, y, blocks) };
                self.rest(x, rows, res, relu, y, blocks);
                return;
            }
            Simd::None => {}
        }
        let blocks = self.outputs / BLOCK * BLOCK;
        by_rows!(blocks_portable, self, x, res, relu, y, blocks);
        self.rest(x, rows, res, relu, y, blocks);
    }

    /// The outputs from `from` on (those past the last whole block), one by one.
    fn rest(
        &self,
        x: &[f32],
        rows: usize,
        res: Option<&[f32]>,
        relu: bool,
        y: &mut [f32],
        from: usize,
    ) {
        let (k, m) = (self.inputs, self.outputs);
        for r in 0..rows {
            for j in from..m {
                let mut v = self.b[j];
                for i in 0..k {
                    v += x[r * k + i] * self.w_t[i * m + j];
                }
                finish(&mut y[r * m + j], v, res.map(|res| res[r * m + j]), relu);
            }
        }
    }
}

fn finish(y: &mut f32, v: f32, res: Option<f32>, relu: bool) {
    let v = v + res.unwrap_or(0.0);
    *y = if relu { v.max(0.0) } else { v };
}

/// The widest kernel this processor runs.
fn simd_available() -> Simd {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") {
            return Simd::Avx512;
        }
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
            return Simd::Avx2;
        }
    }
    Simd::None
}

/// The whole blocks of outputs (`0..blocks`) for `R` rows, in plain loops.
fn blocks_portable<const R: usize>(
    d: &Dense,
    x: &[f32],
    res: Option<&[f32]>,
    relu: bool,
    y: &mut [f32],
    blocks: usize,
) {
    let (k, m) = (d.inputs, d.outputs);
    for jb in (0..blocks).step_by(BLOCK) {
        let mut acc = [[0.0f32; BLOCK]; R];
        for a in acc.iter_mut() {
            a.copy_from_slice(&d.b[jb..jb + BLOCK]);
        }
        for i in 0..k {
            let w = &d.w_t[i * m + jb..i * m + jb + BLOCK];
            for (r, a) in acc.iter_mut().enumerate() {
                let xi = x[r * k + i];
                for (a, w) in a.iter_mut().zip(w) {
                    *a += xi * w;
                }
            }
        }
        for (r, a) in acc.iter().enumerate() {
            for (j, &v) in a.iter().enumerate() {
                let at = r * m + jb + j;
                finish(&mut y[at], v, res.map(|res| res[at]), relu);
            }
        }
    }
}

/// A kernel of [`blocks_portable`]'s loops in vector instructions: per block of two vectors'
/// width of outputs, `R` × 2 accumulators. `$lanes` is a vector's width in floats, the rest
/// are the instruction set's load, store, broadcast, fused multiply-add, add, max and zero.
macro_rules! simd_kernel {
    ($(#[$doc:meta])* $name:ident, $features:literal, $lanes:literal,
     $load:ident, $store:ident, $splat:ident, $fmadd:ident, $add:ident, $max:ident, $zero:ident) => {
        $(#[$doc])*
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        unsafe fn $name<const R: usize>(
            d: &Dense,
            x: &[f32],
            res: Option<&[f32]>,
            relu: bool,
            y: &mut [f32],
            blocks: usize,
        ) {
            use std::arch::x86_64::*;
            let (k, m) = (d.inputs, d.outputs);
            assert!(x.len() >= R * k && y.len() >= R * m && d.w_t.len() >= k * m && blocks <= m);
            if let Some(res) = res {
                assert!(res.len() >= R * m);
            }
            let (w, xp, yp) = (d.w_t.as_ptr(), x.as_ptr(), y.as_mut_ptr());
            for jb in (0..blocks).step_by(2 * $lanes) {
                // SAFETY (all the loads and stores): jb + 2 × lanes ≤ blocks ≤ m, i < k, r < R,
                // and the lengths were checked above.
                let b0 = $load(d.b.as_ptr().add(jb));
                let b1 = $load(d.b.as_ptr().add(jb + $lanes));
                let mut acc = [[b0, b1]; R];
                for i in 0..k {
                    let w0 = $load(w.add(i * m + jb));
                    let w1 = $load(w.add(i * m + jb + $lanes));
                    for (r, a) in acc.iter_mut().enumerate() {
                        let xi = $splat(*xp.add(r * k + i));
                        a[0] = $fmadd(xi, w0, a[0]);
                        a[1] = $fmadd(xi, w1, a[1]);
                    }
                }
                for (r, a) in acc.iter().enumerate() {
                    for (h, mut v) in a.iter().copied().enumerate() {
                        let at = r * m + jb + $lanes * h;
                        if let Some(res) = res {
                            v = $add(v, $load(res.as_ptr().add(at)));
                        }
                        if relu {
                            v = $max(v, $zero());
                        }
                        $store(yp.add(at), v);
                    }
                }
            }
        }
    };
}

simd_kernel!(
    /// [`blocks_portable`] with AVX2 and FMA: blocks of [`BLOCK`] outputs.
    ///
    /// # Safety
    /// The processor must have AVX2 and FMA.
    blocks_avx2, "avx2,fma", 8, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_set1_ps,
    _mm256_fmadd_ps, _mm256_add_ps, _mm256_max_ps, _mm256_setzero_ps
);

simd_kernel!(
    /// [`blocks_portable`] with AVX-512: blocks of [`WIDE`] outputs.
    ///
    /// # Safety
    /// The processor must have AVX-512F.
    blocks_avx512, "avx512f", 16, _mm512_loadu_ps, _mm512_storeu_ps, _mm512_set1_ps,
    _mm512_fmadd_ps, _mm512_add_ps, _mm512_max_ps, _mm512_setzero_ps
);

#[cfg(test)]
mod tests {
    use super::*;
    use ayo_env::rng::Rng;

    fn random(rng: &mut Rng, n: usize) -> Vec<f32> {
        (0..n)
            .map(|_| rng.below(2001) as f32 / 1000.0 - 1.0)
            .collect()
    }

    /// The textbook sum, in f64.
    fn reference(d: &Dense, x: &[f32], n: usize, res: Option<&[f32]>, relu: bool) -> Vec<f32> {
        let (k, m) = (d.inputs, d.outputs);
        let mut y = vec![0.0; n * m];
        for r in 0..n {
            for j in 0..m {
                let mut v = d.b[j] as f64 + res.map_or(0.0, |res| res[r * m + j] as f64);
                for i in 0..k {
                    v += x[r * k + i] as f64 * d.w_t[i * m + j] as f64;
                }
                y[r * m + j] = if relu { v.max(0.0) as f32 } else { v as f32 };
            }
        }
        y
    }

    #[test]
    fn both_kernels_compute_the_layer_for_every_batch_and_width() {
        let mut rng = Rng::stream(5, &[]);
        for (k, m) in [(182, 192), (192, 192), (192, 6), (192, 1), (7, 40), (9, 80)] {
            let w_t = random(&mut rng, k * m);
            let b = random(&mut rng, m);
            let mut kernels = vec![Simd::None];
            #[cfg(target_arch = "x86_64")]
            {
                if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                    kernels.push(Simd::Avx2);
                }
                if std::is_x86_feature_detected!("avx512f") {
                    kernels.push(Simd::Avx512);
                }
            }
            for &simd in &kernels {
                let mut d = Dense::new(k, m, w_t.clone(), b.clone());
                d.simd = simd;
                for n in [1, 5, 6, 7, 13, 64] {
                    let x = random(&mut rng, n * k);
                    let res = random(&mut rng, n * m);
                    for (res, relu) in [(None, false), (Some(&res[..]), true)] {
                        let got = d.forward(&x, n, res, relu);
                        let want = reference(&d, &x, n, res, relu);
                        for (g, w) in got.iter().zip(&want) {
                            assert!(
                                (g - w).abs() < 1e-3,
                                "k {k} m {m} n {n} {simd:?}: {g} vs {w}"
                            );
                        }
                    }
                }
            }
        }
    }
}
