//! A Vec-backed, hash-consed form store for tests.

use std::collections::HashMap;

use super::graph::{AffineGraph, Shape};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Node {
    LeftWin,
    RightWin,
    Form(Vec<u32>, Vec<u32>),
    Sum(Vec<u32>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToyError(pub &'static str);

impl std::fmt::Display for ToyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

#[derive(Default)]
pub struct Toy {
    nodes: Vec<Node>,
    /// Conjugates are made at creation, so `conj` never recurses.
    conj: Vec<u32>,
    index: HashMap<Node, u32>,
    nimbers: Vec<u32>,
}

impl Toy {
    pub fn new() -> Self {
        let mut t = Toy {
            nodes: vec![Node::LeftWin, Node::RightWin],
            conj: vec![1, 0],
            ..Default::default()
        };
        t.index.insert(Node::LeftWin, 0);
        t.index.insert(Node::RightWin, 1);
        t
    }

    /// Interns `n` and its conjugate `c` (built from known conjugates).
    fn intern(&mut self, n: Node) -> u32 {
        if let Some(&i) = self.index.get(&n) {
            return i;
        }
        let c = match &n {
            Node::Form(l, r) => {
                let mut cl: Vec<u32> = r.iter().map(|&x| self.conj[x as usize]).collect();
                let mut cr: Vec<u32> = l.iter().map(|&x| self.conj[x as usize]).collect();
                cl.sort_unstable();
                cl.dedup();
                cr.sort_unstable();
                cr.dedup();
                Node::Form(cl, cr)
            }
            Node::Sum(p) => {
                let mut cp: Vec<u32> = p.iter().map(|&x| self.conj[x as usize]).collect();
                cp.sort_unstable();
                Node::Sum(cp)
            }
            _ => unreachable!("infinities are pre-interned"),
        };
        let i = self.nodes.len() as u32;
        self.nodes.push(n.clone());
        self.index.insert(n.clone(), i);
        if c == n {
            self.conj.push(i);
        } else {
            let j = i + 1;
            self.nodes.push(c.clone());
            self.index.insert(c, j);
            self.conj.push(j);
            self.conj.push(i);
        }
        i
    }

    pub fn inf(&self) -> u32 {
        0
    }

    pub fn neg_inf(&self) -> u32 {
        1
    }

    pub fn form(&mut self, left: &[u32], right: &[u32]) -> u32 {
        let (mut l, mut r) = (left.to_vec(), right.to_vec());
        l.sort_unstable();
        l.dedup();
        r.sort_unstable();
        r.dedup();
        self.intern(Node::Form(l, r))
    }

    /// `{ L | conj(L) }`.
    pub fn symmetric(&mut self, left: &[u32]) -> u32 {
        let right: Vec<u32> = left.iter().map(|&l| self.conj(l)).collect();
        self.form(left, &right)
    }

    pub fn conj(&self, g: u32) -> u32 {
        self.conj[g as usize]
    }

    pub fn nim(&mut self, n: u32) -> u32 {
        while self.nimbers.len() <= n as usize {
            let opts = self.nimbers.clone();
            let g = self.form(&opts, &opts);
            self.nimbers.push(g);
        }
        self.nimbers[n as usize]
    }

    /// `{∞ | P^R}`: Left moves and entails Right to answer in `P`.
    pub fn entail_left(&mut self, p: u32) -> u32 {
        let mut r = Vec::new();
        self.right_options(p, &mut r).expect("toy");
        self.form(&[0], &r)
    }

    /// `{P^L | ∞̄}`.
    pub fn entail_right(&mut self, p: u32) -> u32 {
        let mut l = Vec::new();
        self.left_options(p, &mut l).expect("toy");
        self.form(&l, &[1])
    }

    pub fn add(&mut self, parts: &[u32]) -> Result<u32, ToyError> {
        let mut flat = Vec::new();
        let mut todo = parts.to_vec();
        let (mut lw, mut rw) = (false, false);
        while let Some(p) = todo.pop() {
            match &self.nodes[p as usize] {
                Node::Sum(ps) => todo.extend(ps.iter().copied()),
                Node::LeftWin => lw = true,
                Node::RightWin => rw = true,
                // {|} is the identity of the sum.
                Node::Form(l, r) if l.is_empty() && r.is_empty() => {}
                Node::Form(..) => flat.push(p),
            }
        }
        match (lw, rw) {
            (true, true) => return Err(ToyError("∞ + ∞̄")),
            (true, false) => return Ok(0),
            (false, true) => return Ok(1),
            _ => {}
        }
        flat.sort_unstable();
        Ok(match flat.len() {
            0 => self.nim(0),
            1 => flat[0],
            _ => self.intern(Node::Sum(flat)),
        })
    }

    fn options(&mut self, g: u32, left: bool, out: &mut Vec<u32>) -> Result<(), ToyError> {
        match self.nodes[g as usize].clone() {
            Node::LeftWin | Node::RightWin => {}
            Node::Form(l, r) => out.extend(if left { l } else { r }),
            Node::Sum(parts) => {
                let mut sub = Vec::new();
                for i in 0..parts.len() {
                    sub.clear();
                    self.options(parts[i], left, &mut sub)?;
                    for &o in &sub {
                        let mut p = parts.clone();
                        p[i] = o;
                        out.push(self.add(&p)?);
                    }
                }
            }
        }
        Ok(())
    }
}

impl AffineGraph for Toy {
    type Id = u32;
    type Error = ToyError;

    fn shape(&mut self, g: u32) -> Result<Shape<u32>, ToyError> {
        Ok(match &self.nodes[g as usize] {
            Node::LeftWin => Shape::LeftWin,
            Node::RightWin => Shape::RightWin,
            Node::Form(..) => Shape::Form,
            Node::Sum(p) => Shape::Sum(p.clone()),
        })
    }
    fn left_options(&mut self, g: u32, out: &mut Vec<u32>) -> Result<(), ToyError> {
        self.options(g, true, out)
    }
    fn right_options(&mut self, g: u32, out: &mut Vec<u32>) -> Result<(), ToyError> {
        self.options(g, false, out)
    }
    fn conjugate(&mut self, g: u32) -> Result<u32, ToyError> {
        Ok(self.conj(g))
    }
    fn nimber(&mut self, n: u32) -> u32 {
        self.nim(n)
    }
    fn sum(&mut self, parts: &[u32]) -> Result<u32, ToyError> {
        self.add(parts)
    }
}
