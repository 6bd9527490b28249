//! Jupyter's wire format on top of ZeroMQ frames: the routing identities, `<IDS|MSG>`, the
//! HMAC-SHA256 signature (hex) of the next four frames, then `header`, `parent_header`,
//! `metadata` and `content` as JSON, then any buffers.

use bytes::Bytes;
use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

const DELIMITER: &[u8] = b"<IDS|MSG>";

/// The messaging protocol version the kernel speaks.
pub const PROTOCOL_VERSION: &str = "5.3";

/// One message, decoded.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// The ROUTER's routing frames: where a reply goes back to.
    pub identities: Vec<Bytes>,
    pub header: Value,
    pub parent_header: Value,
    pub metadata: Value,
    pub content: Value,
    pub buffers: Vec<Bytes>,
}

impl Message {
    /// The header's `msg_type` (`""` when missing).
    pub fn msg_type(&self) -> &str {
        self.header["msg_type"].as_str().unwrap_or("")
    }

    /// A string field of the content (`""` when missing or not a string).
    pub fn text(&self, field: &str) -> &str {
        self.content[field].as_str().unwrap_or("")
    }
}

/// Why a message was dropped.
#[derive(Debug, Clone, PartialEq)]
pub enum WireError {
    NoDelimiter,
    /// Fewer than the signature and four JSON frames after the delimiter.
    TooFewFrames(usize),
    BadSignature,
    /// A frame that is not a JSON object (`which` names it).
    BadJson {
        which: &'static str,
        message: String,
    },
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::NoDelimiter => write!(f, "no <IDS|MSG> delimiter"),
            WireError::TooFewFrames(n) => {
                write!(f, "{n} frames after the delimiter, at least 5 are needed")
            }
            WireError::BadSignature => write!(f, "the signature does not match the key"),
            WireError::BadJson { which, message } => write!(f, "the {which} frame: {message}"),
        }
    }
}

/// Signs and checks messages with the connection file's key; an empty key means no signing
/// (the protocol's rule), and then every signature is empty.
pub struct Signer {
    key: Vec<u8>,
}

impl Signer {
    pub fn new(key: &str) -> Self {
        Signer {
            key: key.as_bytes().to_vec(),
        }
    }

    fn mac(&self, frames: &[&[u8]]) -> Option<Hmac<Sha256>> {
        if self.key.is_empty() {
            return None;
        }
        // HMAC takes a key of any length, so this never fails.
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).ok()?;
        for f in frames {
            mac.update(f);
        }
        Some(mac)
    }

    pub fn sign(&self, frames: &[&[u8]]) -> String {
        match self.mac(frames) {
            Some(mac) => hex(&mac.finalize().into_bytes()),
            None => String::new(),
        }
    }

    /// Whether `signature` (hex) signs `frames`, compared in constant time.
    pub fn verify(&self, signature: &[u8], frames: &[&[u8]]) -> bool {
        match self.mac(frames) {
            None => true,
            Some(mac) => unhex(signature).is_some_and(|s| mac.verify_slice(&s).is_ok()),
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &[u8]) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    text.chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
        .collect()
}

fn object(frame: &[u8], which: &'static str) -> Result<Value, WireError> {
    let bad = |message: String| WireError::BadJson { which, message };
    let v: Value = serde_json::from_slice(frame).map_err(|e| bad(e.to_string()))?;
    if v.is_object() {
        Ok(v)
    } else {
        Err(bad("not a JSON object".to_string()))
    }
}

/// The frames of a received message as a [`Message`], its signature checked.
pub fn decode(frames: Vec<Bytes>, signer: &Signer) -> Result<Message, WireError> {
    let at = frames
        .iter()
        .position(|f| f.as_ref() == DELIMITER)
        .ok_or(WireError::NoDelimiter)?;
    let rest = &frames[at + 1..];
    if rest.len() < 5 {
        return Err(WireError::TooFewFrames(rest.len()));
    }
    let signed: Vec<&[u8]> = rest[1..5].iter().map(|f| f.as_ref()).collect();
    if !signer.verify(&rest[0], &signed) {
        return Err(WireError::BadSignature);
    }
    Ok(Message {
        identities: frames[..at].to_vec(),
        header: object(&rest[1], "header")?,
        parent_header: object(&rest[2], "parent_header")?,
        metadata: object(&rest[3], "metadata")?,
        content: object(&rest[4], "content")?,
        buffers: rest[5..].to_vec(),
    })
}

/// A message's frames, signed: `identities`, the delimiter, the signature, the four parts.
pub fn encode(msg: &Message, signer: &Signer) -> Vec<Bytes> {
    let parts: [Vec<u8>; 4] = [
        msg.header.to_string().into_bytes(),
        msg.parent_header.to_string().into_bytes(),
        msg.metadata.to_string().into_bytes(),
        msg.content.to_string().into_bytes(),
    ];
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let signature = signer.sign(&refs);
    let mut frames = msg.identities.clone();
    frames.push(Bytes::from_static(DELIMITER));
    frames.push(Bytes::from(signature));
    frames.extend(parts.into_iter().map(Bytes::from));
    frames.extend(msg.buffers.iter().cloned());
    frames
}

/// Makes the headers of the kernel's messages: one session id, message ids that never repeat.
pub struct Headers {
    session: String,
    next: AtomicU64,
}

impl Headers {
    pub fn new() -> Self {
        use std::time::{SystemTime, UNIX_EPOCH};
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        Headers {
            session: format!(
                "loony-{:x}-{:x}",
                std::process::id(),
                now.as_nanos() & 0xffff_ffff_ffff
            ),
            next: AtomicU64::new(1),
        }
    }

    pub fn header(&self, msg_type: &str) -> Value {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        json!({
            "msg_id": format!("{}-{n}", self.session),
            "session": self.session,
            "username": "loony",
            "date": now_iso8601(),
            "msg_type": msg_type,
            "version": PROTOCOL_VERSION,
        })
    }

    /// A message of `msg_type` in answer to `parent`: the same identities (so a ROUTER sends it
    /// back to the asker), `parent`'s header as the parent.
    pub fn reply(&self, parent: &Message, msg_type: &str, content: Value) -> Message {
        Message {
            identities: parent.identities.clone(),
            header: self.header(msg_type),
            parent_header: parent.header.clone(),
            metadata: json!({}),
            content,
            buffers: Vec::new(),
        }
    }

    /// A message for iopub about `parent` (no identities: PUB sends to every subscriber; the
    /// topic frame is the message type, as ipykernel writes it).
    pub fn publish(&self, parent: Option<&Message>, msg_type: &str, content: Value) -> Message {
        Message {
            identities: vec![Bytes::from(format!("kernel.{msg_type}"))],
            header: self.header(msg_type),
            parent_header: parent.map_or(json!({}), |p| p.header.clone()),
            metadata: json!({}),
            content,
            buffers: Vec::new(),
        }
    }
}

impl Default for Headers {
    fn default() -> Self {
        Self::new()
    }
}

/// The time now in UTC as ISO 8601 with microseconds, as headers carry it.
fn now_iso8601() -> String {
    use std::time::{SystemTime, UNIX_EPOCH};
    let t = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let secs = t.as_secs();
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:06}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60,
        t.subsec_micros()
    )
}

/// Days since 1970-01-01 as a (year, month, day) of the proleptic Gregorian calendar
/// (Howard Hinnant's algorithm).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}
