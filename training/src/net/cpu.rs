//! The network's forward pass without libtorch: [`CpuNet`] reads a checkpoint (`.ot`) with a
//! strict reader of the file `ayo train` writes, and evaluates batches of observations with
//! its own dense layers ([`Dense`]) — for the Python package (which has no torch), wherever
//! libtorch is absent, and in the alpha-beta search over the network (one position or a node's
//! children at a time, where it is 3–5 times faster than libtorch). It computes what
//! [`super::Net::forward`] computes (`training/tests/integration/cpu_net.rs` checks every
//! shipped network against libtorch).
//!
//! The file is libtorch's archive of named tensors: a ZIP of stored entries holding
//! `<archive>/data.pkl`, a pickle (protocol 2) of a module whose state maps each name
//! (`net|block0|a|weight`, …, and `__metadata__`: the checkpoint's metadata JSON as bytes) to a
//! tensor rebuilt from a storage `<archive>/data/<key>` of little-endian values. The reader
//! runs exactly the pickle operations that writer emits and refuses any other, any tensor that
//! is not a contiguous float32 (or, for the metadata, uint8) array, and any size that does not
//! add up: a damaged or foreign file is refused, not half-read.

use super::kernel::Dense;
use super::{NetShape, Network};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Why a checkpoint cannot be read without libtorch.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct CpuNetError {
    pub path: PathBuf,
    pub reason: String,
}

/// One tensor of the archive.
#[derive(Clone, Debug, PartialEq)]
struct TensorRef {
    storage: String,
    dtype: String,
    shape: Vec<usize>,
}

/// Values of the pickle machine.
#[derive(Clone, Debug)]
enum Val {
    Str(String),
    Int(i64),
    Bool,
    Tuple(Vec<Val>),
    Global(String),
    Persistent(Box<Val>),
    Tensor(TensorRef),
    Dict(Vec<(Val, Val)>),
    Object(Option<Box<Val>>),
    Mark,
}

/// Runs the pickle `data` and returns the tensors of the module's state by name.
fn unpickle(data: &[u8]) -> Result<HashMap<String, TensorRef>, String> {
    let mut machine = Pickle {
        data,
        at: 0,
        stack: Vec::new(),
        memo: HashMap::new(),
    };
    loop {
        let [op] = machine
            .bytes()
            .map_err(|_| "the pickle ends without STOP".to_string())?;
        if !machine.step(op)? {
            break;
        }
    }
    let Some(Val::Object(Some(state))) = machine.stack.pop() else {
        return Err("the pickle is not a module with a state".into());
    };
    let Val::Dict(entries) = *state else {
        return Err("the module's state is not a dict".into());
    };
    let mut out = HashMap::new();
    for (k, v) in entries {
        if let (Val::Str(name), Val::Tensor(t)) = (k, v) {
            out.insert(name, t);
        }
    }
    Ok(out)
}

/// The pickle machine: the program, where it is in it, its stack and its memo.
struct Pickle<'a> {
    data: &'a [u8],
    at: usize,
    stack: Vec<Val>,
    memo: HashMap<u32, Val>,
}

impl<'a> Pickle<'a> {
    /// The next `n` bytes of the program.
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let s = self
            .data
            .get(self.at..self.at + n)
            .ok_or("the pickle ends early")?;
        self.at += n;
        Ok(s)
    }

    /// The next `N` bytes, little-endian.
    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], String> {
        Ok(self.take(N)?.try_into().expect("N bytes"))
    }

    fn pop(&mut self) -> Result<Val, String> {
        self.stack
            .pop()
            .ok_or_else(|| "the pickle pops an empty stack".to_string())
    }

    /// The items above the topmost mark, the mark removed.
    fn pop_mark(&mut self) -> Result<Vec<Val>, String> {
        let at = self
            .stack
            .iter()
            .rposition(|v| matches!(v, Val::Mark))
            .ok_or("no mark")?;
        let items = self.stack.split_off(at + 1);
        self.stack.pop();
        Ok(items)
    }

    /// Runs the opcode `op`; false at STOP. Only the opcodes a checkpoint holds are known.
    fn step(&mut self, op: u8) -> Result<bool, String> {
        match op {
            0x80 => {
                self.take(1)?; // PROTO
            }
            b'c' => self.global()?,
            b'q' | b'r' | b'h' | b'j' => self.memo(op)?,
            b')' => self.stack.push(Val::Tuple(Vec::new())),
            b'}' => self.stack.push(Val::Dict(Vec::new())),
            b'(' => self.stack.push(Val::Mark),
            b'X' => {
                let n = u32::from_le_bytes(self.bytes()?) as usize;
                let s = std::str::from_utf8(self.take(n)?).map_err(|e| e.to_string())?;
                self.stack.push(Val::Str(s.to_string()));
            }
            b'K' => {
                let [k] = self.bytes()?;
                self.stack.push(Val::Int(k as i64))
            }
            b'M' => {
                let k = u16::from_le_bytes(self.bytes()?);
                self.stack.push(Val::Int(k as i64))
            }
            b'J' => {
                let k = i32::from_le_bytes(self.bytes()?);
                self.stack.push(Val::Int(k as i64))
            }
            0x88 | 0x89 => self.stack.push(Val::Bool),
            b't' | 0x85..=0x87 => self.tuple(op)?,
            b'Q' => {
                let pid = self.pop()?;
                self.stack.push(Val::Persistent(Box::new(pid)));
            }
            0x81 => {
                // NEWOBJ: cls args
                let _args = self.pop()?;
                match self.pop()? {
                    Val::Global(_) => self.stack.push(Val::Object(None)),
                    other => return Err(format!("NEWOBJ of {other:?}")),
                }
            }
            b'R' => self.reduce()?,
            b'u' => self.set_items()?,
            b'b' => {
                let state = self.pop()?;
                match self.stack.last_mut() {
                    Some(Val::Object(s)) => *s = Some(Box::new(state)),
                    _ => return Err("BUILD without an object".into()),
                }
            }
            b'.' => return Ok(false),
            other => {
                return Err(format!(
                    "pickle opcode 0x{other:02x}, which a checkpoint does not hold"
                ))
            }
        }
        Ok(true)
    }

    /// GLOBAL "module\nname\n".
    fn global(&mut self) -> Result<(), String> {
        let rest = &self.data[self.at..];
        let end1 = rest.iter().position(|&b| b == b'\n').ok_or("bad GLOBAL")?;
        let end2 = rest[end1 + 1..]
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("bad GLOBAL")?;
        let module = String::from_utf8_lossy(&rest[..end1]);
        let name = String::from_utf8_lossy(&rest[end1 + 1..end1 + 1 + end2]);
        self.at += end1 + end2 + 2;
        self.stack.push(Val::Global(format!("{module} {name}")));
        Ok(())
    }

    /// BINPUT, LONG_BINPUT (the top of the stack into the memo), BINGET, LONG_BINGET (back).
    fn memo(&mut self, op: u8) -> Result<(), String> {
        let key = match op {
            b'q' | b'h' => self.bytes::<1>()?[0] as u32,
            _ => u32::from_le_bytes(self.bytes()?),
        };
        let name = match op {
            b'q' => "BINPUT",
            b'r' => "LONG_BINPUT",
            b'h' => "BINGET",
            _ => "LONG_BINGET",
        };
        match op {
            b'q' | b'r' => {
                let top = self
                    .stack
                    .last()
                    .ok_or(format!("{name} on an empty stack"))?;
                self.memo.insert(key, top.clone());
            }
            _ => {
                let value = self.memo.get(&key).ok_or(format!("{name} of nothing"))?;
                self.stack.push(value.clone());
            }
        }
        Ok(())
    }

    /// TUPLE (the items above the mark), TUPLE1, TUPLE2, TUPLE3.
    fn tuple(&mut self, op: u8) -> Result<(), String> {
        let items = if op == b't' {
            self.pop_mark()?
        } else {
            let n = (op - 0x84) as usize;
            if self.stack.len() < n {
                return Err("TUPLE of too few items".into());
            }
            self.stack.split_off(self.stack.len() - n)
        };
        self.stack.push(Val::Tuple(items));
        Ok(())
    }

    /// REDUCE: the two calls a checkpoint makes, an OrderedDict and a tensor.
    fn reduce(&mut self) -> Result<(), String> {
        let args = self.pop()?;
        let f = self.pop()?;
        let Val::Global(name) = f else {
            return Err(format!("REDUCE of {f:?}"));
        };
        let Val::Tuple(args) = args else {
            return Err("REDUCE without an argument tuple".into());
        };
        match name.as_str() {
            "collections OrderedDict" => self.stack.push(Val::Dict(Vec::new())),
            "torch._utils _rebuild_tensor_v2" => self.stack.push(Val::Tensor(tensor(&args)?)),
            other => {
                return Err(format!(
                    "REDUCE of {other}, which a checkpoint does not hold"
                ))
            }
        }
        Ok(())
    }

    /// SETITEMS: the key-value pairs above the mark into the dict below it.
    fn set_items(&mut self) -> Result<(), String> {
        let items = self.pop_mark()?;
        let Some(Val::Dict(d)) = self.stack.last_mut() else {
            return Err("SETITEMS without a dict".into());
        };
        let mut it = items.into_iter();
        while let (Some(k), Some(v)) = (it.next(), it.next()) {
            d.push((k, v));
        }
        Ok(())
    }
}

/// `_rebuild_tensor_v2(storage, offset, shape, stride, requires_grad, hooks)`, contiguous only.
fn tensor(args: &[Val]) -> Result<TensorRef, String> {
    let [Val::Persistent(pid), Val::Int(offset), Val::Tuple(shape), Val::Tuple(stride), ..] = args
    else {
        return Err(format!("tensor arguments {args:?}"));
    };
    let Val::Tuple(pid) = &**pid else {
        return Err("storage reference is not a tuple".into());
    };
    let [Val::Str(kind), Val::Global(dtype), Val::Str(key), Val::Str(_device), Val::Int(numel)] =
        &pid[..]
    else {
        return Err(format!("storage reference {pid:?}"));
    };
    if kind != "storage" {
        return Err(format!("persistent id {kind:?}"));
    }
    let ints = |t: &[Val]| -> Result<Vec<usize>, String> {
        t.iter()
            .map(|v| match v {
                Val::Int(x) if *x >= 0 => Ok(*x as usize),
                other => Err(format!("size {other:?}")),
            })
            .collect()
    };
    let (shape, stride) = (ints(shape)?, ints(stride)?);
    let mut expected = 1;
    for (d, s) in shape.iter().zip(&stride).rev() {
        if *d > 1 && *s != expected {
            return Err(format!(
                "a non-contiguous tensor (shape {shape:?}, stride {stride:?})"
            ));
        }
        expected *= d;
    }
    if *offset != 0 || expected as i64 != *numel {
        return Err(format!(
            "tensor of {expected} values at offset {offset} in a storage of {numel}"
        ));
    }
    Ok(TensorRef {
        storage: key.clone(),
        dtype: dtype.clone(),
        shape,
    })
}

/// The network, evaluated on the CPU by its own dense layers (`net/kernel.rs`).
pub struct CpuNet {
    pub shape: NetShape,
    /// The checkpoint's metadata (JSON), as stored in the file.
    pub meta_json: String,
    input: Dense,
    blocks: Vec<(Dense, Dense)>,
    policy: Dense,
    value: Dense,
    score: Dense,
}

impl CpuNet {
    /// Reads the checkpoint at `path`.
    pub fn load(path: &Path) -> Result<CpuNet, CpuNetError> {
        let bad = |reason: String| CpuNetError {
            path: path.to_path_buf(),
            reason,
        };
        let file = std::fs::File::open(path).map_err(|e| bad(format!("cannot open: {e}")))?;
        let mut zip = zip::ZipArchive::new(file)
            .map_err(|e| bad(format!("not a checkpoint archive: {e}")))?;
        let pkl = (0..zip.len())
            .filter_map(|k| zip.by_index(k).ok().map(|f| f.name().to_string()))
            .find(|n| n.ends_with("/data.pkl"))
            .ok_or_else(|| bad("not a checkpoint archive: no data.pkl".into()))?;
        let root = pkl.trim_end_matches("data.pkl").to_string();
        let mut read = |name: &str| -> Result<Vec<u8>, CpuNetError> {
            let mut f = zip.by_name(name).map_err(|e| bad(format!("{name}: {e}")))?;
            let mut v = Vec::new();
            f.read_to_end(&mut v)
                .map_err(|e| bad(format!("{name}: {e}")))?;
            Ok(v)
        };
        let tensors = unpickle(&read(&pkl)?).map_err(|e| bad(format!("{pkl}: {e}")))?;
        let mut data =
            |name: &str, dtype: &str, size: usize| -> Result<(Vec<u8>, Vec<usize>), CpuNetError> {
                let t = tensors
                    .get(name)
                    .ok_or_else(|| bad(format!("no tensor {name}")))?;
                if t.dtype != dtype {
                    return Err(bad(format!("{name} is {}, expected {dtype}", t.dtype)));
                }
                let bytes = read(&format!("{root}data/{}", t.storage))?;
                let n: usize = t.shape.iter().product();
                if bytes.len() != n * size {
                    return Err(bad(format!("{name}: {} bytes for {n} values", bytes.len())));
                }
                Ok((bytes, t.shape.clone()))
            };
        let (meta_bytes, _) = data("__metadata__", "torch ByteStorage", 1)?;
        let meta_json = String::from_utf8(meta_bytes).map_err(|e| bad(format!("metadata: {e}")))?;
        let meta: serde_json::Value =
            serde_json::from_str(&meta_json).map_err(|e| bad(format!("metadata: {e}")))?;
        let shape: NetShape = serde_json::from_value(meta["shape"].clone())
            .map_err(|e| bad(format!("metadata shape: {e}")))?;
        let mut linear = |name: &str,
                          inputs: usize,
                          outputs: usize|
         -> Result<Dense, CpuNetError> {
            let floats = |bytes: Vec<u8>| -> Vec<f32> {
                bytes
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
                    .collect()
            };
            let (w, ws) = data(&format!("net|{name}|weight"), "torch FloatStorage", 4)?;
            let (b, bs) = data(&format!("net|{name}|bias"), "torch FloatStorage", 4)?;
            if ws != [outputs, inputs] || bs != [outputs] {
                return Err(bad(format!("{name} has shapes {ws:?} and {bs:?}, expected [{outputs}, {inputs}] and [{outputs}] for {shape:?}")));
            }
            let w = floats(w);
            let w_t = (0..inputs * outputs)
                .map(|at| w[(at % outputs) * inputs + at / outputs])
                .collect();
            Ok(Dense::new(inputs, outputs, w_t, floats(b)))
        };
        let w = shape.width;
        let input = linear("input", shape.input_features(), w)?;
        let blocks = (0..shape.blocks)
            .map(|k| {
                Ok((
                    linear(&format!("block{k}|a"), w, w)?,
                    linear(&format!("block{k}|b"), w, w)?,
                ))
            })
            .collect::<Result<_, CpuNetError>>()?;
        let policy = linear("policy", w, shape.actions)?;
        let value = linear("value", w, 1)?;
        let score = linear("score", w, 1)?;
        Ok(CpuNet {
            shape,
            meta_json,
            input,
            blocks,
            policy,
            value,
            score,
        })
    }
}

impl Network for CpuNet {
    fn shape(&self) -> NetShape {
        self.shape
    }

    /// Evaluates `n` observations (`obs`: `n × inputs`): policy logits into `logits`
    /// (`n × actions`), values (tanh, the mover's view) into `values`, and the score head's
    /// outputs into `scores` when given.
    fn evaluate(
        &self,
        obs: &[f32],
        n: usize,
        logits: &mut [f32],
        values: &mut [f32],
        scores: Option<&mut [f32]>,
    ) {
        let (inputs, levels, features) = (
            self.shape.inputs,
            self.shape.levels,
            self.shape.input_features(),
        );
        let mut x = vec![0.0; n * features];
        for (row, o) in x.chunks_exact_mut(features).zip(obs.chunks_exact(inputs)) {
            for (j, &v) in o.iter().enumerate() {
                row[j] = v;
                for k in 0..levels {
                    row[inputs + j * levels + k] = (4.0 * v - k as f32).clamp(0.0, 1.0);
                }
            }
        }
        let mut h = self.input.forward(&x, n, None, true);
        for (a, b) in &self.blocks {
            let t = a.forward(&h, n, None, true);
            h = b.forward(&t, n, Some(&h), true);
        }
        let p = self.policy.forward(&h, n, None, false);
        let v = self.value.forward(&h, n, None, false);
        logits[..n * self.shape.actions].copy_from_slice(&p);
        for (value, v) in values.iter_mut().zip(v) {
            *value = v.tanh();
        }
        if let Some(scores) = scores {
            for (score, s) in scores
                .iter_mut()
                .zip(self.score.forward(&h, n, None, false))
            {
                *score = s.tanh();
            }
        }
    }
}
