//! The Python package's extension module (`loony._loony`): a `Session` is one interpreter
//! (`loony_lang::Interp`) on a thread of its own with a big stack, as the binary and the
//! notebook kernel run it. The interpreter's values hold `Rc`s, so they never leave that
//! thread: Python gets plain data (integers, booleans, strings, lists, tuples) or a `Value`,
//! a handle to a value kept in the session's table. Every request is a job on that thread;
//! the calling Python thread waits for it without the GIL, checking for signals now and then,
//! so other Python threads run meanwhile and Ctrl-C stops the job through the interrupt flag
//! the REPL's Ctrl-C raises.

use loony_core::diag::{Error, FileId, guard};
use loony_lang::{Interp, Value};
use pyo3::exceptions::{PyException, PyKeyError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList, PyString, PyTuple};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

/// The memory budget counts what the interpreter allocates, as in the binary.
#[global_allocator]
static GLOBAL: loony_core::memory::Counting = loony_core::memory::Counting;

pyo3::create_exception!(
    loony,
    LoonyError,
    PyException,
    "An error from Loony: `code` (`E0…`), `message`, and `str(e)` the rendered diagnostic."
);

pyo3::create_exception!(
    loony,
    LoonyWarning,
    pyo3::exceptions::PyUserWarning,
    "A warning from Loony (`W0…`): `code`, `message`, and `str(w)` the rendered diagnostic."
);

/// Stack sizes tried for a session's thread, largest first (as `main` does).
const STACKS: [usize; 4] = [4 << 30, 1 << 30, 256 << 20, 64 << 20];

/// How often a waiting Python thread checks for signals (Ctrl-C).
const POLL: Duration = Duration::from_millis(20);

/// How long each side of a session's channel spins before it sleeps: a thread woken from
/// sleep takes 10 µs or more to run again on an idle virtual machine, three times what a small
/// call costs, and a caller in a loop sends the next job within a few microseconds.
pub(crate) const SPIN: Duration = Duration::from_micros(50);

/// A message from `rx` if one comes within [`SPIN`], without sleeping.
fn spin<T>(rx: &mpsc::Receiver<T>) -> Option<T> {
    let start = std::time::Instant::now();
    loop {
        for _ in 0..64 {
            match rx.try_recv() {
                Ok(x) => return Some(x),
                Err(mpsc::TryRecvError::Disconnected) => return None,
                Err(mpsc::TryRecvError::Empty) => std::hint::spin_loop(),
            }
        }
        if start.elapsed() >= SPIN {
            return None;
        }
        // On a busy machine the other side may be waiting for this core.
        std::thread::yield_now();
    }
}

/// The next message from `rx`: [`spin`], then sleep until one comes.
fn recv_spinning<T>(rx: &mpsc::Receiver<T>) -> Result<T, mpsc::RecvError> {
    match spin(rx) {
        Some(x) => Ok(x),
        None => rx.recv(),
    }
}

mod reply;
mod worker;
use worker::*;

/// The Python side of a session: the queue of its thread's jobs (each with its ticket) and
/// what it is running.
struct Inner {
    jobs: mpsc::Sender<(u64, Job)>,
    running: Arc<Running>,
    /// The next job's ticket (from 1).
    tickets: AtomicU64,
    /// Tells sessions apart (a value of one session is no argument in another).
    id: u64,
}

static SESSIONS: AtomicU64 = AtomicU64::new(0);

impl Inner {
    fn start(memory: Option<usize>, budget: Option<usize>) -> PyResult<Arc<Inner>> {
        let (jobs, rx) = mpsc::channel::<(u64, Job)>();
        let (ready_tx, ready_rx) = mpsc::channel::<Arc<Running>>();
        let work = Arc::new(std::sync::Mutex::new(Some((rx, ready_tx))));
        let mut started = false;
        for size in STACKS {
            loony_core::memory::set_aside(size);
            let work = work.clone();
            let spawned = std::thread::Builder::new()
                .name("loony-session".into())
                .stack_size(size)
                .spawn(move || {
                    let Some((rx, ready)) = work.lock().ok().and_then(|mut w| w.take()) else {
                        return;
                    };
                    let mut interp = Interp::new();
                    if let Some(m) = memory {
                        interp.cx.limits.memory = m;
                    }
                    if let Some(b) = budget {
                        interp.cx.limits.budget = b;
                    }
                    let running = Arc::new(Running {
                        ticket: Mutex::new(0),
                        interrupt: interp.cx.limits.interrupt.clone(),
                    });
                    if ready.send(running.clone()).is_err() {
                        return;
                    }
                    let mut w = Worker {
                        interp,
                        values: HashMap::new(),
                        next: 0,
                        files: HashMap::new(),
                        parsed: HashMap::new(),
                        sites: Vec::new(),
                        warnings: Vec::new(),
                    };
                    while let Ok((ticket, job)) = recv_spinning(&rx) {
                        // A Ctrl-C that came as the last job ended stopped nothing: it is
                        // not left to stop this one.
                        running.start(ticket);
                        // A panic outside a statement's guard (a bug) drops the job's reply,
                        // which the caller reports; the session goes on.
                        let reply =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut w)));
                        // Not busy any more by the time the caller has its reply.
                        running.finish();
                        if let Ok(reply) = reply {
                            reply();
                        }
                    }
                });
            if spawned.is_ok() {
                started = true;
                break;
            }
        }
        let running = match ready_rx.recv() {
            Ok(running) if started => running,
            _ => {
                return Err(PyRuntimeError::new_err(
                    "the session's thread could not start, not even on a 64 MiB stack",
                ));
            }
        };
        Ok(Arc::new(Inner {
            jobs,
            running,
            tickets: AtomicU64::new(1),
            id: SESSIONS.fetch_add(1, Ordering::Relaxed),
        }))
    }

    /// Runs `f` on the session's thread and waits for it without the GIL. A signal (Ctrl-C)
    /// meanwhile raises the interrupt flag; the job then stops within a poll of the
    /// interpreter, and the signal's exception (`KeyboardInterrupt`) is raised. A signal
    /// that came before the call is raised before any work starts.
    fn call<R: Send + 'static>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Worker) -> R + Send + 'static,
    ) -> PyResult<R> {
        py.check_signals()?;
        let slot = reply::Slot::take();
        let replier = reply::Replier::new(&slot);
        let ticket = self.tickets.fetch_add(1, Ordering::Relaxed);
        let job: Job = Box::new(move |w: &mut Worker| {
            let r = f(w);
            let warned = std::mem::take(&mut w.warnings);
            Box::new(move || replier.send((r, warned)))
        });
        self.jobs
            .send((ticket, job))
            .map_err(|_| PyRuntimeError::new_err("the session's thread has stopped"))?;
        let mut signalled: Option<PyErr> = None;
        loop {
            let got = py.detach(|| slot.wait(POLL));
            match got {
                Some(reply::Posted::Reply(r)) => {
                    slot.done();
                    if let Some(e) = signalled {
                        return Err(e);
                    }
                    let Ok(r) = r.downcast::<(R, Vec<Failure>)>() else {
                        return Err(PyRuntimeError::new_err(
                            "internal error: a reply of another type",
                        ));
                    };
                    let (r, warned) = *r;
                    for w in warned {
                        warn(py, w)?;
                    }
                    return Ok(r);
                }
                None => {
                    if signalled.is_none()
                        && let Err(e) = py.check_signals()
                    {
                        signalled = Some(e);
                    }
                    if signalled.is_some() {
                        // Raised again each poll while this job runs (queued behind another
                        // job, it has not started; a statement starting lowers the flag).
                        self.running.interrupt(ticket);
                    }
                }
                Some(reply::Posted::Lost) => {
                    slot.done();
                    return Err(signalled.unwrap_or_else(|| {
                        PyRuntimeError::new_err("internal error: the session's thread failed")
                    }));
                }
            }
        }
    }

    /// As [`Inner::call`] for a job that may fail with a Loony error.
    fn call_loony<R: Send + 'static>(
        self: &Arc<Self>,
        py: Python<'_>,
        f: impl FnOnce(&mut Worker) -> Result<R, Failure> + Send + 'static,
    ) -> PyResult<R> {
        self.call(py, f)?.map_err(|e| loony_error(py, e))
    }
}

/// A Loony warning to Python's `warnings` (a `LoonyWarning` with `code` and `message`;
/// an error if a filter turns it into one).
fn warn(py: Python<'_>, w: Failure) -> PyResult<()> {
    let inst = py
        .get_type::<LoonyWarning>()
        .call1((w.rendered.trim_end().to_string(),))?;
    inst.setattr("code", w.code)?;
    inst.setattr("message", w.message)?;
    py.import("warnings")?.call_method1("warn", (inst,))?;
    Ok(())
}

fn loony_error(py: Python<'_>, f: Failure) -> PyErr {
    let err = LoonyError::new_err(f.rendered.trim_end().to_string());
    let v = err.value(py);
    let _ = v.setattr("code", f.code);
    let _ = v.setattr("message", f.message);
    err
}

/// Python values to Loony's: int, bool, str, list, tuple (nested), and `Value`s of `inner`'s
/// session.
fn to_in(inner: &Arc<Inner>, x: &Bound<'_, PyAny>) -> PyResult<In> {
    if let Ok(b) = x.cast::<PyBool>() {
        return Ok(In::Bool(b.is_true()));
    }
    if x.is_instance_of::<PyInt>() {
        return x
            .extract::<i64>()
            .map(In::Int)
            .map_err(|_| PyValueError::new_err("Loony's integers are 64-bit"));
    }
    if let Ok(s) = x.cast::<PyString>() {
        return Ok(In::Str(s.to_cow()?.into_owned()));
    }
    if let Ok(l) = x.cast::<PyList>() {
        return l
            .iter()
            .map(|y| to_in(inner, &y))
            .collect::<PyResult<_>>()
            .map(In::List);
    }
    if let Ok(t) = x.cast::<PyTuple>() {
        return t
            .iter()
            .map(|y| to_in(inner, &y))
            .collect::<PyResult<_>>()
            .map(In::Tuple);
    }
    if let Ok(v) = x.cast::<PyValue>() {
        let v = v.get();
        if v.inner.id != inner.id {
            return Err(PyValueError::new_err("a value of another session"));
        }
        return Ok(In::Handle(v.id));
    }
    Err(PyTypeError::new_err(format!(
        "Loony takes int, bool, str, list, tuple and loony.Value, not {}",
        x.get_type().name()?
    )))
}

fn to_py(py: Python<'_>, inner: &Arc<Inner>, o: Out) -> PyResult<Py<PyAny>> {
    Ok(match o {
        Out::Int(n) => n.into_pyobject(py)?.into_any().unbind(),
        Out::Bool(b) => PyBool::new(py, b).to_owned().into_any().unbind(),
        Out::Str(s) => PyString::new(py, &s).into_any().unbind(),
        Out::None => py.None(),
        Out::List(xs) => {
            let items = xs
                .into_iter()
                .map(|x| to_py(py, inner, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any().unbind()
        }
        Out::Tuple(xs) => {
            let items = xs
                .into_iter()
                .map(|x| to_py(py, inner, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, items)?.into_any().unbind()
        }
        Out::Handle(id, shown, doc) => {
            let value = PyValue {
                inner: inner.clone(),
                id,
                // A long printed form is not kept: made again if asked for.
                shown: shown
                    .filter(|s| s.len() <= KEEP_SHOWN)
                    .map_or_else(Default::default, std::sync::OnceLock::from),
                hash: Default::default(),
            };
            match doc {
                None => Py::new(py, value)?.into_any(),
                Some(c) => {
                    let init = pyo3::PyClassInitializer::from(value).add_subclass(PyFunction {
                        name: c.name,
                        doc: c.doc,
                    });
                    Py::new(py, init)?.into_any()
                }
            }
        }
    })
}

/// One interpreter: globals, rulesets and caches last as long as the session.
#[pyclass(module = "loony", name = "Session", frozen)]
struct PySession {
    inner: Arc<Inner>,
}

#[pymethods]
impl PySession {
    /// `memory`: the memory budget, in bytes or as `--memory` takes it (`"4G"`); `budget`:
    /// the ruleset positions one statement may explore.
    #[new]
    #[pyo3(signature = (memory = None, budget = None))]
    fn new(memory: Option<&Bound<'_, PyAny>>, budget: Option<usize>) -> PyResult<Self> {
        let memory = match memory {
            None => None,
            Some(m) => Some(if let Ok(s) = m.cast::<PyString>() {
                let s = &*s.to_cow()?;
                loony_core::memory::parse_size(s).ok_or_else(|| {
                    PyValueError::new_err(format!("`{s}` is not a size like 4G or 512M"))
                })?
            } else {
                m.extract::<usize>()?
            }),
        };
        Ok(PySession {
            inner: Inner::start(memory, budget)?,
        })
    }

    /// Runs Loony source; returns the values of its top-level expressions (bindings,
    /// definitions and imports add nothing).
    #[pyo3(signature = (source, name = "<python>"))]
    fn run(&self, py: Python<'_>, source: String, name: &str) -> PyResult<Py<PyAny>> {
        let name = name.to_string();
        let outs = self
            .inner
            .call_loony(py, move |w| w.run_bytes(&name, source.into_bytes()))?;
        to_py(py, &self.inner, Out::List(outs))
    }

    /// Runs Loony source; returns the value of its last expression (`None` if it has none).
    #[pyo3(signature = (source, name = "<python>"))]
    fn eval(&self, py: Python<'_>, source: String, name: &str) -> PyResult<Py<PyAny>> {
        let name = name.to_string();
        let mut outs = self
            .inner
            .call_loony(py, move |w| w.run_bytes(&name, source.into_bytes()))?;
        to_py(py, &self.inner, outs.pop().unwrap_or(Out::None))
    }

    /// Runs a `.cgt` file; returns the values of its top-level expressions.
    fn load(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<Py<PyAny>> {
        let bytes = std::fs::read(&path)?;
        let name = path.display().to_string();
        let outs = self
            .inner
            .call_loony(py, move |w| w.run_bytes(&name, bytes))?;
        to_py(py, &self.inner, Out::List(outs))
    }

    /// A global of the session (or a built-in): a Python value, or a `Value` (callable for a
    /// `fn`, ruleset or built-in). A `KeyError` for a name that is not bound.
    fn __getitem__(&self, py: Python<'_>, name: String) -> PyResult<Py<PyAny>> {
        let ident = !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_alphanumeric() || c == '_');
        if !ident {
            return Err(PyKeyError::new_err(name));
        }
        let src = name.clone();
        let got = self.inner.call(py, move |w| match w.global(&src) {
            Some(r) => r,
            // A built-in (or nothing): what the name evaluates to.
            None => w.one(&src, Vec::new()),
        })?;
        match got {
            Ok(o) => to_py(py, &self.inner, o),
            Err(_) => Err(PyKeyError::new_err(name)),
        }
    }

    /// Whether the session's thread is running a call now (one made from another Python
    /// thread, say); read without waiting for it.
    #[getter]
    fn busy(&self) -> bool {
        *self.inner.running.ticket() != 0
    }

    fn __contains__(&self, py: Python<'_>, name: String) -> PyResult<bool> {
        match self.__getitem__(py, name) {
            Ok(_) => Ok(true),
            Err(e) if e.is_instance_of::<PyKeyError>(py) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// A Loony value that Python has no type for: a game, an outcome, a function, a ruleset, a
/// record, a nim-sequence… `str(v)` is its printed form.
#[pyclass(module = "loony", name = "Value", frozen, subclass)]
struct PyValue {
    inner: Arc<Inner>,
    id: u64,
    /// Its printed form, once made.
    shown: std::sync::OnceLock<String>,
    /// `hash(v)`, found once.
    hash: std::sync::OnceLock<u64>,
}

impl Drop for PyValue {
    fn drop(&mut self) {
        let id = self.id;
        let job: Job = Box::new(move |w: &mut Worker| {
            w.values.remove(&id);
            Box::new(|| ())
        });
        let _ = self.inner.jobs.send((0, job));
    }
}

impl PyValue {
    /// Loony's printed form (`str(v)`).
    fn shown(&self, py: Python<'_>) -> PyResult<String> {
        if let Some(s) = self.shown.get() {
            return Ok(s.clone());
        }
        let id = self.id;
        let s = self.inner.call_loony(py, move |w| w.show(id))?;
        if s.len() <= KEEP_SHOWN {
            let _ = self.shown.set(s.clone());
        }
        Ok(s)
    }

    /// The value as error messages name it: its printed form, cut short.
    fn label(&self, py: Python<'_>) -> String {
        match self.shown(py) {
            Ok(s) if s.chars().count() > 60 => {
                format!("{}…", s.chars().take(60).collect::<String>())
            }
            Ok(s) => s,
            Err(_) => "the value".to_string(),
        }
    }

    /// A nim-sequence's first heap, length and width (bytes a value); a `TypeError` for
    /// another value.
    fn shape(&self, py: Python<'_>) -> PyResult<(u64, usize, usize)> {
        let id = self.id;
        self.inner
            .call(py, move |w| match w.values.get(&id) {
                Some(Value::Sequence(q)) => Some((q.start, q.values.len(), q.values.width())),
                _ => None,
            })?
            .ok_or_else(|| {
                PyTypeError::new_err(format!("{} is not a nim-sequence", self.label(py)))
            })
    }

    fn packed(&self, py: Python<'_>, with_values: bool) -> PyResult<(u64, Vec<u8>, usize)> {
        let id = self.id;
        self.inner
            .call(py, move |w| w.sequence(id, with_values))?
            .ok_or_else(|| {
                PyTypeError::new_err(format!("{} is not a nim-sequence", self.label(py)))
            })
    }

    /// The printed form of `src` run with this value as `__loony_py0`.
    fn text(&self, py: Python<'_>, src: &str) -> PyResult<String> {
        let (id, src) = (self.id, src.to_string());
        self.inner
            .call_loony(py, move |w| w.text(&src, vec![In::Handle(id)]))
    }

    /// Runs `src` with this value as `__loony_py0` and `more` after it.
    fn apply(&self, py: Python<'_>, src: &str, more: Vec<In>) -> PyResult<Out> {
        let mut args = vec![In::Handle(self.id)];
        args.extend(more);
        let src = src.to_string();
        self.inner.call_loony(py, move |w| w.one(&src, args))
    }
}

#[pymethods]
impl PyValue {
    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.shown(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("loony.Value({})", self.shown(py)?))
    }

    /// Loony's equality (`==`): games by value. Anything Loony cannot take is unequal.
    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(o) = to_in(&self.inner, other) else {
            return Ok(false);
        };
        match self.apply(py, "__loony_py0 == __loony_py1", vec![o]) {
            Ok(Out::Bool(b)) => Ok(b),
            Ok(_) => Ok(false),
            Err(e) if e.is_instance_of::<LoonyError>(py) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Agrees with `==`: a game hashes as its value, anything else as its printed form.
    fn __hash__(&self, py: Python<'_>) -> PyResult<u64> {
        use std::hash::{Hash, Hasher};
        if let Some(&h) = self.hash.get() {
            return Ok(h);
        }
        // Not a game (no value): its printed form. Ctrl-C meanwhile is raised, not hashed.
        let key = match self.text(py, "value(__loony_py0)") {
            Ok(k) => k,
            Err(e) if e.is_instance_of::<LoonyError>(py) => self.shown(py)?,
            Err(e) => return Err(e),
        };
        let mut h = std::collections::hash_map::DefaultHasher::new();
        key.hash(&mut h);
        Ok(*self.hash.get_or_init(|| h.finish()))
    }

    /// The sum (Loony's `+`): of games, the disjunctive sum.
    fn __add__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let o = to_in(&self.inner, other)?;
        let r = self.apply(py, "__loony_py0 + __loony_py1", vec![o])?;
        to_py(py, &self.inner, r)
    }

    fn __radd__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let o = to_in(&self.inner, other)?;
        let r = self.apply(py, "__loony_py1 + __loony_py0", vec![o])?;
        to_py(py, &self.inner, r)
    }

    /// A nimber's number (`int(*3)` is 3); a `TypeError` for any other value.
    fn __int__(&self, py: Python<'_>) -> PyResult<i64> {
        match self.apply(py, "nimber(__loony_py0)", Vec::new()) {
            Ok(Out::Int(n)) => Ok(n),
            Ok(_) => Err(PyTypeError::new_err(format!(
                "{} is not a nimber",
                self.label(py)
            ))),
            Err(e) if e.is_instance_of::<LoonyError>(py) => Err(PyTypeError::new_err(format!(
                "{} is not a nimber: {}",
                self.label(py),
                e.value(py).getattr("message")?
            ))),
            Err(e) => Err(e),
        }
    }

    /// The outcome class under normal play: `"P"`, `"N"` or `"D"` (`"L"`/`"R"` with `∞`).
    #[getter]
    fn outcome(&self, py: Python<'_>) -> PyResult<String> {
        self.text(py, "outcome(__loony_py0)")
    }

    /// The options of a game (Loony's `options(g)`), as a list.
    fn options(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let r = self.apply(py, "options(__loony_py0)", Vec::new())?;
        to_py(py, &self.inner, r)
    }

    /// The moves of a game to a P-position (Loony's `winning_moves(g)`), as a list.
    fn winning_moves(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let r = self.apply(py, "winning_moves(__loony_py0)", Vec::new())?;
        to_py(py, &self.inner, r)
    }

    /// A nim-sequence as a NumPy array of the smallest unsigned type that holds its values
    /// (`uint8`, `uint16` or `uint32`; element `i` is heap `start + i`, see `v.start`), with
    /// no Python object per element. By default the array is a read-only view of the
    /// session's packed values (no copy; it keeps this value alive); `copy=True` gives a
    /// writable array of its own (one copy). A `TypeError` for any other value; NumPy is
    /// imported only here.
    #[pyo3(signature = (copy = false))]
    fn to_numpy<'py>(slf: &Bound<'py, Self>, copy: bool) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let this = slf.get();
        let (_, len, width) = this.shape(py)?;
        let dtype = match width {
            1 => "u1",
            2 => "=u2",
            _ => "=u4",
        };
        let bytes = len * width;
        let numpy = py.import("numpy")?;
        if !copy && bytes > 0 {
            use loony_core::packed::Packed;
            // The values stay where the session keeps them: an `Rc<Sequence>` in its table
            // while this `Value` lives (the view holds it), never changed in place.
            let id = this.id;
            let at = this.inner.call(py, move |w| match w.values.get(&id) {
                Some(Value::Sequence(q)) => Some(match &q.values {
                    Packed::U8(v) => v.as_ptr() as usize,
                    Packed::U16(v) => v.as_ptr() as usize,
                    Packed::U32(v) => v.as_ptr() as usize,
                }),
                _ => None,
            })?;
            let Some(at) = at else {
                return Err(PyRuntimeError::new_err(
                    "internal error: the nim-sequence changed",
                ));
            };
            let ctypes = py.import("ctypes")?;
            let kind = ctypes
                .getattr("c_uint8")?
                .call_method1("__mul__", (bytes,))?;
            let view = kind.call_method1("from_address", (at,))?;
            view.setattr("loony_value", slf)?;
            let a = numpy.call_method1("frombuffer", (view, dtype))?;
            a.getattr("flags")?.setattr("writeable", false)?;
            return Ok(a);
        }
        // One copy, from the session's packed values straight into the array's buffer: a
        // new bytearray that no other Python code can reach until it is returned.
        let buf = pyo3::types::PyByteArray::new_with(py, bytes, |dst| {
            let (id, at) = (this.id, dst.as_mut_ptr() as usize);
            // SAFETY: `dst` is `bytes` long and this thread waits, doing nothing else with
            // it, until the job has copied into it.
            let copied = this.inner.call(py, move |w| unsafe {
                w.copy_sequence(id, at as *mut u8, bytes)
            })?;
            if copied {
                Ok(())
            } else {
                Err(PyRuntimeError::new_err(
                    "internal error: the nim-sequence changed",
                ))
            }
        })?;
        numpy.call_method1("frombuffer", (buf, dtype))
    }

    /// A nim-sequence's values as a list of ints (`to_numpy` without NumPy).
    fn nim_values(&self, py: Python<'_>) -> PyResult<Vec<u32>> {
        let (_, bytes, width) = self.packed(py, true)?;
        Ok(bytes
            .chunks_exact(width)
            .map(|c| match *c {
                [a] => a as u32,
                [a, b] => u16::from_ne_bytes([a, b]) as u32,
                [a, b, c, d] => u32::from_ne_bytes([a, b, c, d]),
                _ => 0,
            })
            .collect())
    }

    /// A nim-sequence's first heap.
    #[getter]
    fn start(&self, py: Python<'_>) -> PyResult<u64> {
        Ok(self.packed(py, false)?.0)
    }

    /// What the notebook kernel shows (records, nim-sequences); `None` for other values.
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let id = self.id;
        self.inner.call(py, move |w| w.html(id))
    }

    /// Calls a Loony `fn`, ruleset or built-in with Python arguments.
    #[pyo3(signature = (*args))]
    fn __call__(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        let ins = args
            .iter()
            .map(|a| to_in(&self.inner, &a))
            .collect::<PyResult<Vec<_>>>()?;
        let id = self.id;
        let r = self.inner.call_loony(py, move |w| w.call(id, ins))?;
        to_py(py, &self.inner, r)
    }
}

// A `Value` that is a `fn`, ruleset or built-in, with its own `__doc__` (so `help(f)` shows
// it) and `__name__`. No doc comment: a class docstring would shadow the `__doc__` getter.
#[pyclass(module = "loony", name = "Function", extends = PyValue, frozen)]
struct PyFunction {
    name: String,
    doc: String,
}

#[pymethods]
impl PyFunction {
    #[getter]
    fn __doc__(&self) -> &str {
        &self.doc
    }

    #[getter]
    fn __name__(&self) -> &str {
        &self.name
    }
}

#[pymodule]
fn _loony(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySession>()?;
    m.add_class::<PyValue>()?;
    m.add_class::<PyFunction>()?;
    m.add("LoonyError", m.py().get_type::<LoonyError>())?;
    m.add("LoonyWarning", m.py().get_type::<LoonyWarning>())?;
    Ok(())
}
