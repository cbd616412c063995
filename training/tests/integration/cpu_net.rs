//! The network without libtorch ([`CpuNet`]) against libtorch's ([`Net`]) on every shipped
//! model: the same logits, values and scores (the score head's, which play may weigh) on
//! positions of random games of its variant, to 1e-5 of their largest magnitude (at least 1:
//! the two sum float32 products in different orders, so the rounding grows with the size of the
//! logits); and damaged files refused.

use ayo_env::arena::agents;
use ayo_env::{Player, Rules};
use ayo_train::checkpoint;
use ayo_train::net::{CpuNet, Network};
use std::path::PathBuf;

fn shipped() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../models");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).into_iter().flatten())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ot"))
        .collect();
    found.sort();
    found
}

#[test]
fn every_shipped_network_agrees_with_libtorch() {
    let models = shipped();
    assert!(models.len() >= 8, "a network per variant: {models:?}");
    for path in models {
        let (net, meta) = checkpoint::load(&path, tch::Device::Cpu).unwrap();
        let cpu = CpuNet::load(&path).unwrap();
        assert_eq!(cpu.shape, net.shape);
        let rules = meta.rules().unwrap();
        let len = net.shape.inputs;
        let mut obs = Vec::new();
        let mut random = agents::parse("random", 5).unwrap();
        let mut n = 0;
        while n < 120 {
            let mut s = rules.start(Player::South);
            while rules.to_play(&s).is_some() && n < 120 {
                let mut o = vec![0.0; len];
                net.shape.encode(&rules, &s, &mut o);
                obs.extend(o);
                n += 1;
                let (a, _) = random.choose(&rules, &s);
                rules.play(&mut s, a).unwrap();
            }
        }
        let na = rules.num_actions();
        let (mut l1, mut v1, mut s1) = (vec![0.0; n * na], vec![0.0; n], vec![0.0; n]);
        let (mut l2, mut v2, mut s2) = (vec![0.0; n * na], vec![0.0; n], vec![0.0; n]);
        net.evaluate(&obs, n, &mut l1, &mut v1, Some(&mut s1));
        cpu.evaluate(&obs, n, &mut l2, &mut v2, Some(&mut s2));
        // libtorch's score head, straight from the forward pass.
        let x = tch::Tensor::from_slice(&obs).view([n as i64, len as i64]);
        let head: Vec<f32> = Vec::try_from(tch::no_grad(|| net.forward(&x)).score).unwrap();
        let diff = |a: &[f32], b: &[f32]| {
            a.iter()
                .zip(b)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0f32, f32::max)
        };
        let (dl, dv, ds) = (diff(&l1, &l2), diff(&v1, &v2), diff(&s1, &s2));
        assert!(
            diff(&s1, &head) <= 1e-6,
            "{}: scores are not the score head's",
            path.display()
        );
        assert!(
            diff(&s1, &v1) > 1e-3,
            "{}: scores equal to values",
            path.display()
        );
        let scale = l1.iter().fold(1.0f32, |m, x| m.max(x.abs()));
        eprintln!("{}: max |logit difference| {dl:.2e} (largest |logit| {scale:.1}), max |value difference| {dv:.2e} over {n} positions", path.display());
        assert!(
            dl <= 1e-5 * scale && dv <= 1e-5 && ds <= 1e-5,
            "{}: {dl} {dv} {ds}",
            path.display()
        );
    }
}

#[test]
fn damaged_and_foreign_files_are_refused() {
    let path = shipped().remove(0);
    let bytes = std::fs::read(&path).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("cut.ot");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let e = CpuNet::load(&cut).err().unwrap().to_string();
    assert!(e.contains("cut.ot"), "{e}");
    let text = dir.path().join("text.ot");
    std::fs::write(&text, "not a checkpoint").unwrap();
    assert!(CpuNet::load(&text)
        .err()
        .unwrap()
        .to_string()
        .contains("not a checkpoint archive"));
    // Every stored byte of a tensor flipped in turn would change values, not shapes; a wrong
    // shape in the metadata is refused by name.
    assert!(CpuNet::load(&dir.path().join("missing.ot"))
        .err()
        .unwrap()
        .to_string()
        .contains("cannot open"));
}
