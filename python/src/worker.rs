//! A session's own thread: the jobs it runs (statements, calls, reading a value), what
//! crosses back to Python (`Out`), and the interrupt flag each job raises only for itself.

use super::*;
use loony_syntax::ast::{Program, Stmt};

/// A value as it crosses to Python: Python's own where Python has one, else a handle to a
/// value kept on the session's thread, with its printed form.
pub(crate) enum Out {
    Int(i64),
    Bool(bool),
    Str(String),
    None,
    List(Vec<Out>),
    Tuple(Vec<Out>),
    /// A handle, its printed form when it was made anyway (a statement's result), and for a
    /// callable (a `fn`, ruleset or built-in) its name and documentation.
    Handle(u64, Option<String>, Option<Box<Callable>>),
}

/// What Python shows of a callable value: `__name__` and `__doc__` (`help(f)`).
pub(crate) struct Callable {
    pub(crate) name: String,
    pub(crate) doc: String,
}

/// A built-in's row of the table (signature, documentation, example), a `fn`'s or ruleset's
/// signature; `None` for a value that is not callable.
pub(crate) fn callable(v: &Value) -> Option<Box<Callable>> {
    use loony_lang::catalog;
    use loony_lang::show::signature;
    let (name, doc) = match v {
        Value::Builtin(id) => {
            let b = catalog::get(*id);
            (b.name.to_string(), catalog::help(b))
        }
        Value::Func(c) => {
            let name = c.def.name.name.to_string();
            let doc = format!("fn {}", signature(&name, &c.def.params));
            (name, doc)
        }
        Value::Ruleset(r) => {
            let name = r.def.name.name.to_string();
            let doc = format!("ruleset {}", signature(&name, &r.def.params));
            (name, doc)
        }
        _ => return None,
    };
    Some(Box::new(Callable { name, doc }))
}

/// A Python argument as it crosses to the session's thread.
pub(crate) enum In {
    Int(i64),
    Bool(bool),
    Str(String),
    List(Vec<In>),
    Tuple(Vec<In>),
    Handle(u64),
}

/// A Loony error, rendered on the session's thread (where its source files are).
pub(crate) struct Failure {
    pub(crate) code: &'static str,
    pub(crate) message: String,
    pub(crate) rendered: String,
}

/// What lives on the session's thread: the interpreter and the values Python holds.
pub(crate) struct Worker {
    pub(crate) interp: Interp,
    pub(crate) values: HashMap<u64, Value>,
    pub(crate) next: u64,
    /// Short sources run before (the operations on values, repeated evals), by name and
    /// text: run again from the same file instead of adding one each time, so a million
    /// calls do not keep a million copies of `__loony_py0 + __loony_py1`.
    pub(crate) files: HashMap<String, HashMap<String, FileId>>,
    /// The parses of some of those files (at most [`PARSED`]): parsing `*3 + *5` costs
    /// several times what running it does.
    pub(crate) parsed: HashMap<FileId, Rc<Program>>,
    /// Per number of arguments, the call site `__loony_py0(__loony_py1, …)` that calls from
    /// Python are made at (where their errors point), parsed.
    pub(crate) sites: Vec<Option<(FileId, Rc<Program>)>>,
    /// Loony's warnings of the job running, for the caller to raise as `LoonyWarning`s.
    pub(crate) warnings: Vec<Failure>,
}

/// Printed forms at most this long are kept with a `Value`.
pub(crate) const KEEP_SHOWN: usize = 1 << 16;

/// Sources at most this long are kept in [`Worker::files`].
pub(crate) const SHORT: usize = 256;

/// Parses at most this many short sources are kept (dropped all at once past it).
const PARSED: usize = 256;

/// A job on the session's thread; what it gives back sends its reply, once the job is over.
pub(crate) type Job = Box<dyn FnOnce(&mut Worker) -> Reply + Send>;
type Reply = Box<dyn FnOnce() + Send>;

/// Which job the session's thread is running (its ticket; 0 when none, or for a job no
/// caller waits for), beside the interpreter's interrupt flag. The flag is raised only under
/// the lock and only for the job running then, and a job starting lowers it under the lock:
/// a Ctrl-C meant for one job never stops the next (another Python thread's, say), and one
/// that came before a job started is not lost by the job lowering the flag as it starts.
pub(crate) struct Running {
    pub(crate) ticket: Mutex<u64>,
    pub(crate) interrupt: Arc<AtomicBool>,
}

impl Running {
    pub(crate) fn ticket(&self) -> std::sync::MutexGuard<'_, u64> {
        self.ticket.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn start(&self, ticket: u64) {
        let mut t = self.ticket();
        *t = ticket;
        self.interrupt.store(false, Ordering::SeqCst);
    }

    pub(crate) fn finish(&self) {
        *self.ticket() = 0;
    }

    /// Raises the interrupt flag if job `ticket` is the one running.
    pub(crate) fn interrupt(&self, ticket: u64) {
        if *self.ticket() == ticket {
            self.interrupt.store(true, Ordering::SeqCst);
        }
    }
}

/// Whether Python gets `v` as a value of its own (no handle, no printed form kept).
pub(crate) fn plain(v: &Value) -> bool {
    matches!(
        v,
        Value::Int(_)
            | Value::Bool(_)
            | Value::Str(_)
            | Value::None
            | Value::List(_)
            | Value::Tuple(_)
    )
}

/// Globals that pass values into a statement run for Python (`__py0 + __py1`).
pub(crate) fn arg_name(i: usize) -> String {
    format!("__loony_py{i}")
}

impl Worker {
    pub(crate) fn failure(&self, e: &Error) -> Failure {
        Failure {
            code: e.code(),
            message: e.message(),
            rendered: e.render_plain(&self.interp.cx.files),
        }
    }

    /// Warnings are kept for the caller, who gives them to Python's `warnings`.
    pub(crate) fn flush_warnings(&mut self) {
        for w in std::mem::take(&mut self.interp.cx.out.warnings) {
            let rendered = w.render(&self.interp.cx.files, false);
            self.warnings.push(Failure {
                code: w.code(),
                message: w.message(),
                rendered,
            });
        }
    }

    /// The file of a short source (`None` for a long one, or one that is not UTF-8): the same
    /// file each time it is run under this name.
    fn short_file(&mut self, name: &str, bytes: &[u8]) -> Option<FileId> {
        let src = std::str::from_utf8(bytes)
            .ok()
            .filter(|s| s.len() <= SHORT)?;
        let src = src.strip_prefix('\u{feff}').unwrap_or(src);
        if let Some(&f) = self.files.get(name).and_then(|m| m.get(src)) {
            return Some(f);
        }
        let f = self.interp.cx.files.add(name.to_string(), src.to_string());
        let by_name = self.files.entry(name.to_string()).or_default();
        by_name.insert(src.to_string(), f);
        Some(f)
    }

    /// The parse of a short source's file, kept for the next time it runs.
    fn parse(&mut self, file: FileId) -> Result<Rc<Program>, Failure> {
        if let Some(p) = self.parsed.get(&file) {
            return Ok(p.clone());
        }
        let program = self.interp.parse_file(file).map_err(|e| self.failure(&e))?;
        if self.parsed.len() >= PARSED {
            self.parsed.clear();
        }
        let program = Rc::new(program);
        self.parsed.insert(file, program.clone());
        Ok(program)
    }

    /// Runs source text (a file's or a string's), giving each expression statement's value.
    pub(crate) fn run_bytes(&mut self, name: &str, bytes: Vec<u8>) -> Result<Vec<Out>, Failure> {
        let mut got = Vec::new();
        let mut emit = |_: &str, shown: Option<(Value, String)>| {
            if let Some(vs) = shown {
                got.push(vs);
            }
            Ok(())
        };
        let r = match self.short_file(name, &bytes) {
            Some(file) => {
                let program = self.parse(file)?;
                self.interp.run_program_values(file, &program, &mut emit)
            }
            None => match self.interp.add_source(name, bytes) {
                Ok(file) => self.interp.run_file_values(file, &mut emit),
                Err(e) => return Err(self.failure(&e)),
            },
        };
        self.flush_warnings();
        if let Err(e) = r {
            return Err(self.failure(&e));
        }
        let mut outs = Vec::with_capacity(got.len());
        for (v, shown) in got {
            outs.push(self.out(v, Some(shown))?);
        }
        Ok(outs)
    }

    /// Calls the value Python holds as `f` with `args`: the value called in place, nothing
    /// parsed or bound (as `__loony_py0(__loony_py1, …)` would, and where its errors point).
    pub(crate) fn call(&mut self, f: u64, args: Vec<In>) -> Result<Out, Failure> {
        let n = args.len();
        if self.sites.len() <= n {
            self.sites.resize(n + 1, None);
        }
        let (file, site) = match &self.sites[n] {
            Some(s) => s.clone(),
            None => {
                let params: Vec<String> = (1..=n).map(arg_name).collect();
                let src = format!("{}({})", arg_name(0), params.join(", "));
                let file = self.interp.cx.files.add("<python>".into(), src);
                let program = self.parse(file)?;
                self.sites[n] = Some((file, program.clone()));
                (file, program)
            }
        };
        let Some(Stmt::Expr(e)) = site.stmts.first() else {
            unreachable!("a call site is one expression");
        };
        let f = self.values.get(&f).cloned().unwrap_or(Value::None);
        let args = args.into_iter().map(|a| self.value_in(a)).collect();
        let r = self.interp.call_value(file, e, f, args, &|v| !plain(v));
        self.flush_warnings();
        let (v, shown) = r.map_err(|e| self.failure(&e))?;
        self.out(v, shown)
    }

    /// Runs `src` with `args` bound to the globals `__loony_py0`, `__loony_py1`, …
    pub(crate) fn run_with(&mut self, src: &str, args: Vec<In>) -> Result<Vec<Out>, Failure> {
        let n = args.len();
        for (i, a) in args.into_iter().enumerate() {
            let v = self.value_in(a);
            self.interp.cx.globals.insert(arg_name(i), v);
        }
        let r = self.run_bytes("<python>", src.as_bytes().to_vec());
        for i in 0..n {
            self.interp.cx.globals.remove(&arg_name(i));
        }
        r
    }

    /// The value of the last expression of `src` run with `args` (see [`Worker::run_with`]).
    pub(crate) fn one(&mut self, src: &str, args: Vec<In>) -> Result<Out, Failure> {
        Ok(self.run_with(src, args)?.pop().unwrap_or(Out::None))
    }

    /// The printed form of the value of `src` run with `args`, keeping no handle.
    pub(crate) fn text(&mut self, src: &str, args: Vec<In>) -> Result<String, Failure> {
        Ok(match self.one(src, args)? {
            Out::Handle(id, shown, _) => {
                let shown = match shown {
                    Some(s) => Ok(s),
                    None => self.show(id),
                };
                self.values.remove(&id);
                shown?
            }
            Out::Str(s) => s,
            Out::Int(n) => n.to_string(),
            Out::Bool(b) => b.to_string(),
            _ => String::new(),
        })
    }

    pub(crate) fn value_in(&self, a: In) -> Value {
        match a {
            In::Int(n) => Value::Int(n),
            In::Bool(b) => Value::Bool(b),
            In::Str(s) => Value::Str(Rc::new(s)),
            In::List(xs) => {
                Value::List(Rc::new(xs.into_iter().map(|x| self.value_in(x)).collect()))
            }
            In::Tuple(xs) => {
                Value::Tuple(Rc::new(xs.into_iter().map(|x| self.value_in(x)).collect()))
            }
            // A handle of this session (checked on the Python side) that Python still holds.
            In::Handle(id) => self.values.get(&id).cloned().unwrap_or(Value::None),
        }
    }

    /// The printed form of a value Python holds (made only when Python asks for it: a
    /// sequence of 10^7 heaps prints as 25 MB).
    pub(crate) fn show(&mut self, id: u64) -> Result<String, Failure> {
        let v = self.values.get(&id).cloned().unwrap_or(Value::None);
        let Interp { store, cx, .. } = &mut self.interp;
        guard::catch(|| cx.show(store, &v)).map_err(|e| self.failure(&e))
    }

    /// A global of the session, read in place (nothing run, nothing printed).
    pub(crate) fn global(&mut self, name: &str) -> Option<Result<Out, Failure>> {
        let v = self.interp.cx.globals.get(name)?.clone();
        Some(self.out(v, None))
    }

    /// Converts a value for Python; `shown` is its printed form when already known (else it
    /// is made when Python asks for it). Python gets a [`plain`] value as its own.
    pub(crate) fn out(&mut self, v: Value, shown: Option<String>) -> Result<Out, Failure> {
        Ok(match v {
            Value::Int(n) => Out::Int(n),
            Value::Bool(b) => Out::Bool(b),
            Value::Str(s) => Out::Str(s.to_string()),
            Value::None => Out::None,
            Value::List(xs) => Out::List(self.outs(&xs)?),
            Value::Tuple(xs) => Out::Tuple(self.outs(&xs)?),
            v => {
                let id = self.next;
                self.next += 1;
                let doc = callable(&v);
                self.values.insert(id, v);
                Out::Handle(id, shown, doc)
            }
        })
    }

    /// What the notebook kernel shows beside a value's text (`None` for a value without it).
    pub(crate) fn html(&mut self, id: u64) -> Option<String> {
        let v = self.values.get(&id)?.clone();
        let Interp { store, cx, .. } = &mut self.interp;
        guard::catch(|| loony_lang::html::html(cx, store, &v))
            .ok()
            .flatten()
    }

    /// A nim-sequence's first heap, its values' bytes (native order) and their width.
    pub(crate) fn sequence(&self, id: u64, with_values: bool) -> Option<(u64, Vec<u8>, usize)> {
        use loony_core::packed::Packed;
        let Some(Value::Sequence(q)) = self.values.get(&id) else {
            return None;
        };
        let bytes = match &q.values {
            _ if !with_values => Vec::new(),
            Packed::U8(v) => v.clone(),
            Packed::U16(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
            Packed::U32(v) => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
        };
        Some((q.start, bytes, q.values.width()))
    }

    /// A nim-sequence's values copied, in native order, to `dst` (`bytes` long): false if
    /// `id` is no nim-sequence of that many bytes.
    ///
    /// # Safety
    /// `dst` is valid for `bytes` writes and nothing else reads or writes it meanwhile.
    pub(crate) unsafe fn copy_sequence(&self, id: u64, dst: *mut u8, bytes: usize) -> bool {
        use loony_core::packed::Packed;
        let Some(Value::Sequence(q)) = self.values.get(&id) else {
            return false;
        };
        let (src, n) = match &q.values {
            Packed::U8(v) => (v.as_ptr(), v.len()),
            Packed::U16(v) => (v.as_ptr().cast::<u8>(), v.len() * 2),
            Packed::U32(v) => (v.as_ptr().cast::<u8>(), v.len() * 4),
        };
        if n != bytes {
            return false;
        }
        // SAFETY: `src` holds `n` initialised bytes (the values at their width, native
        // order); the caller vouches for `dst`.
        unsafe { std::ptr::copy_nonoverlapping(src, dst, n) };
        true
    }

    pub(crate) fn outs(&mut self, xs: &[Value]) -> Result<Vec<Out>, Failure> {
        xs.iter().map(|x| self.out(x.clone(), None)).collect()
    }
}
