use loony::graph::Csr;
use loony::theory::loopy::gamma;
#[test]
#[ignore]
fn profile_gamma() {
    let n = 1_000_000usize;
    let d = 10usize;
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let lists: Vec<Vec<u32>> = (0..n)
        .map(|i| {
            if i % 7 == 0 {
                return Vec::new();
            }
            let k = 1 + (next() % (2 * d as u64 - 1)) as usize;
            (0..k).map(|_| (next() % n as u64) as u32).collect()
        })
        .collect();
    let g = Csr::from_lists(&lists);
    let t = std::time::Instant::now();
    let s = loony::graph::sccs(&g, &mut || false).unwrap();
    eprintln!("sccs {:?} count {}", t.elapsed(), s.count());
    let mut big = 0;
    for c in 0..s.count() {
        big = big.max(s.component(c).len());
    }
    eprintln!("largest {}", big);
    let t = std::time::Instant::now();
    let gm = gamma(&g, &mut || false).unwrap();
    eprintln!("gamma {:?}", t.elapsed());
    let mx = gm.label.iter().filter(|&&l| l != u32::MAX).max();
    let inf = gm.label.iter().filter(|&&l| l == u32::MAX).count();
    eprintln!("max finite {:?} inf {}", mx, inf);
}
