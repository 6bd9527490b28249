//! Names of well-known quotients.
//!
//! The tame quotients T_n are those of misère Nim on heaps up to 2^(n−1): T0 is trivial,
//! T1 = ⟨a | a²=1⟩ with P = {a}, and for n ≥ 2
//! T_n = ⟨a, b₁…b_{n−1} | a²=1, b_i³=b_i, b_i²=b_j²⟩ with P = {a, b₁²}: the identity, a, and a
//! group G ≅ (Z/2)^n whose identity z = b₁² is the one idempotent other than 1, so |T_n| =
//! 2^n + 2 [digest §2; CGSuite names a quotient "T" + log₂ of its group part]. A quotient is
//! recognised structurally: exactly one idempotent z ≠ 1; G = Q·z has 2^n elements and x² = z
//! on G; Q ∖ G = {1, a} with a² = 1 and a·z ≠ z; P = {a, z}. These determine (Q, P) up to
//! isomorphism (a basis of G through a·z maps it onto T_n). R8 is the quotient of 0.75, the
//! unique quotient of order 8.

use super::monoid::Bipartite;

/// R8 [digest §2]: the only misère quotient of order 8.
pub const R8: (&str, &[&str]) = ("<a,b,c | a2=1,b3=b,bc=ab,c2=b2>", &["a", "b2"]);

/// `Some(n)` when (Q, P) ≅ T_n.
pub fn tame_index(q: &Bipartite) -> Option<u32> {
    let m = &q.monoid;
    let size = m.size();
    let p: Vec<u32> = (0..size as u32).filter(|&x| q.p[x as usize]).collect();
    match size {
        1 => return p.is_empty().then_some(0),
        2 => {
            // {1, a}: a must be P and a² = 1.
            return (p == [1] && m.mul(1, 1) == 0).then_some(1);
        }
        _ => {}
    }
    if p.len() != 2 {
        return None;
    }
    let idempotents: Vec<u32> = (1..size as u32).filter(|&x| m.mul(x, x) == x).collect();
    let [z] = idempotents[..] else { return None };
    let mut in_g = vec![false; size];
    for x in 0..size as u32 {
        in_g[m.mul(x, z) as usize] = true;
    }
    let g: Vec<u32> = (0..size as u32).filter(|&x| in_g[x as usize]).collect();
    if !g.len().is_power_of_two() || g.len() + 2 != size {
        return None;
    }
    if g.iter().any(|&x| m.mul(x, x) != z || m.mul(x, z) != x) {
        return None;
    }
    let outside: Vec<u32> = (0..size as u32).filter(|&x| !in_g[x as usize]).collect();
    let [one, a] = outside[..] else { return None };
    if one != 0 || m.mul(a, a) != 0 || m.mul(a, z) == z {
        return None;
    }
    let mut want = vec![a, z];
    want.sort_unstable();
    (p == want).then_some(g.len().trailing_zeros())
}

/// `T0`, `T1`, …, or `R8`.
pub fn name(q: &Bipartite) -> Option<String> {
    if let Some(n) = tame_index(q) {
        return Some(format!("T{n}"));
    }
    if q.monoid.size() == 8 {
        let r8 = Bipartite::parse(R8.0, R8.1, 16).expect("R8 is well formed");
        if q.isomorphic(&r8, &|| false) == Some(true) {
            return Some("R8".into());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tame_quotients_are_named() {
        let t2 = Bipartite::parse("<a,b | a2=1,b3=b>", &["a", "b2"], 100).unwrap();
        assert_eq!(name(&t2).as_deref(), Some("T2"));
        let t3 = Bipartite::parse("<a,b,c | a2=1,b3=b,b2c=c,c2=b2>", &["a", "b2"], 100).unwrap();
        assert_eq!(t3.monoid.size(), 10);
        assert_eq!(name(&t3).as_deref(), Some("T3"));
        let t1 = Bipartite::parse("<a | a2=1>", &["a"], 10).unwrap();
        assert_eq!(name(&t1).as_deref(), Some("T1"));
        let r8 = Bipartite::parse(R8.0, R8.1, 16).unwrap();
        assert_eq!(name(&r8).as_deref(), Some("R8"));
        // Same monoid as T2, other P: not tame.
        let other = Bipartite::parse("<a,b | a2=1,b3=b>", &["a", "b"], 100).unwrap();
        assert_eq!(name(&other), None);
    }
}
