//! Demand-driven evaluation: the walk for computations whose next need depends on what the
//! last one found.
//!
//! The explorer ([`crate::explore`]) reads a whole position graph before any engine labels it;
//! that fits games whose options are known up front. Some analyses only learn what they need
//! as they go: the affine rule asks for `W(C)` of a left option only once it knows the option
//! checks, a misère link asks for the distinguisher of the pair it is trying, a search stops at
//! the first P option. [`solve`] is the one walk they share: an explicit stack of frames (deep
//! games use heap, not native stack), memoised results looked up before a frame is opened,
//! each finished result handed to the frame that asked for it, and the interrupt polled.
//! The analysis supplies the frames and what a key means.

/// A computation over keys, each of which may need the results of others first.
pub trait Demand {
    /// What is asked for: a position, or a (task, position) pair.
    type Key;
    /// The state of one key's computation while it waits for the keys it needs.
    type Frame;
    /// A finished key's result, handed to the frame that needed it.
    type Out;
    type Error;

    /// The result of `key` if it is already known (memoised); `None` opens a frame for it.
    fn known(&mut self, key: &Self::Key) -> Option<Self::Out>;
    /// Starts computing `key`, known not to be done.
    fn open(&mut self, key: Self::Key) -> Result<Self::Frame, Self::Error>;
    /// The frame's next need, or that it has all it needs.
    fn step(&mut self, frame: &mut Self::Frame) -> Result<Step<Self::Key>, Self::Error>;
    /// The frame has all it needs: its result (memoise it here).
    fn finish(&mut self, frame: Self::Frame) -> Result<Self::Out, Self::Error>;
    /// The result of the key the frame needed last.
    fn take(&mut self, frame: &mut Self::Frame, out: Self::Out);
    /// Polled every [`POLL`] steps: an error (Ctrl-C, a budget) ends the walk.
    fn poll(&mut self) -> Result<(), Self::Error>;
    /// Called before a needed key's frame is pushed: the place to refuse a cycle.
    fn enter(&mut self, _key: &Self::Key) -> Result<(), Self::Error> {
        Ok(())
    }
    /// Called when a frame leaves the stack, finished or not.
    fn leave(&mut self, _frame: &Self::Frame) {}
}

/// What a frame does next.
pub enum Step<K> {
    /// It needs the result of this key.
    Need(K),
    /// It has all it needs.
    Done,
}

/// How often (in steps) [`Demand::poll`] is called.
pub const POLL: u32 = 1 << 12;

/// The result of `root`, computing each key it needs, and theirs, once. On an error the
/// frames still open are dropped (left through [`Demand::leave`]); finished results stay
/// wherever the analysis memoised them.
pub fn solve<D: Demand>(d: &mut D, root: D::Key) -> Result<D::Out, D::Error> {
    if let Some(out) = d.known(&root) {
        return Ok(out);
    }
    d.enter(&root)?;
    let first = d.open(root)?;
    let mut stack = vec![first];
    let result = walk(d, &mut stack);
    for f in &stack {
        d.leave(f);
    }
    result
}

fn walk<D: Demand>(d: &mut D, stack: &mut Vec<D::Frame>) -> Result<D::Out, D::Error> {
    let mut steps = 0u32;
    loop {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(POLL) {
            d.poll()?;
        }
        let top = stack
            .last_mut()
            .expect("the walk ends when the root finishes");
        match d.step(top)? {
            Step::Need(key) => match d.known(&key) {
                Some(out) => d.take(top, out),
                None => {
                    d.enter(&key)?;
                    let child = d.open(key)?;
                    stack.push(child);
                }
            },
            Step::Done => {
                let done = stack.pop().expect("the top frame");
                d.leave(&done);
                let out = d.finish(done)?;
                match stack.last_mut() {
                    Some(parent) => d.take(parent, out),
                    None => return Ok(out),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Grundy values of subtraction({1, 2}) heaps by demand, against the closed form n mod 3.
    struct Grundy {
        memo: HashMap<u32, u32>,
        opened: usize,
    }

    struct F {
        n: u32,
        next: u32,
        seen: Vec<u32>,
    }

    impl Demand for Grundy {
        type Key = u32;
        type Frame = F;
        type Out = u32;
        type Error = ();
        fn known(&mut self, k: &u32) -> Option<u32> {
            self.memo.get(k).copied()
        }
        fn open(&mut self, n: u32) -> Result<F, ()> {
            self.opened += 1;
            Ok(F {
                n,
                next: 1,
                seen: Vec::new(),
            })
        }
        fn step(&mut self, f: &mut F) -> Result<Step<u32>, ()> {
            if f.next <= 2 && f.next <= f.n {
                Ok(Step::Need(f.n - f.next))
            } else {
                Ok(Step::Done)
            }
        }
        fn finish(&mut self, f: F) -> Result<u32, ()> {
            let g = (0..).find(|v| !f.seen.contains(v)).unwrap();
            self.memo.insert(f.n, g);
            Ok(g)
        }
        fn take(&mut self, f: &mut F, out: u32) {
            f.seen.push(out);
            f.next += 1;
        }
        fn poll(&mut self) -> Result<(), ()> {
            Ok(())
        }
    }

    #[test]
    fn deep_chain_without_native_recursion() {
        let mut g = Grundy {
            memo: HashMap::new(),
            opened: 0,
        };
        assert_eq!(solve(&mut g, 200_000), Ok(200_000 % 3));
        assert_eq!(g.opened, 200_001, "each key is computed once");
        for n in [0, 1, 2, 3, 1000, 199_999] {
            assert_eq!(g.memo[&n], n % 3);
        }
    }

    /// A cycle refused by `enter`, and every open frame left on the way out.
    struct Loop {
        on: Vec<u32>,
        left: usize,
    }

    impl Demand for Loop {
        type Key = u32;
        type Frame = u32;
        type Out = ();
        type Error = u32;
        fn known(&mut self, _: &u32) -> Option<()> {
            None
        }
        fn open(&mut self, k: u32) -> Result<u32, u32> {
            Ok(k)
        }
        fn step(&mut self, f: &mut u32) -> Result<Step<u32>, u32> {
            Ok(Step::Need((*f + 1) % 3))
        }
        fn finish(&mut self, _: u32) -> Result<(), u32> {
            Ok(())
        }
        fn take(&mut self, _: &mut u32, _: ()) {}
        fn poll(&mut self) -> Result<(), u32> {
            Ok(())
        }
        fn enter(&mut self, k: &u32) -> Result<(), u32> {
            if self.on.contains(k) {
                return Err(*k);
            }
            self.on.push(*k);
            Ok(())
        }
        fn leave(&mut self, _: &u32) {
            self.left += 1;
        }
    }

    #[test]
    fn cycle_is_refused() {
        let mut l = Loop {
            on: Vec::new(),
            left: 0,
        };
        assert_eq!(solve(&mut l, 1), Err(1));
        assert_eq!(l.left, 3);
    }
}
