//! The connection file Jupyter writes for a kernel it starts: where the five sockets bind and
//! the key that signs every message.

use serde::Deserialize;
use std::path::Path;

#[derive(Debug, Clone, Deserialize)]
pub struct Connection {
    pub transport: String,
    pub ip: String,
    pub shell_port: u16,
    pub iopub_port: u16,
    pub stdin_port: u16,
    pub control_port: u16,
    pub hb_port: u16,
    #[serde(default)]
    pub key: String,
    #[serde(default = "default_scheme")]
    pub signature_scheme: String,
}

fn default_scheme() -> String {
    "hmac-sha256".to_string()
}

impl Connection {
    /// Reads and checks `path`: TCP only (the only transport this build of ZeroMQ has), and
    /// HMAC-SHA256 signatures (the only scheme Jupyter uses).
    pub fn read(path: &Path) -> Result<Connection, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the connection file {}: {e}", path.display()))?;
        Connection::parse(&text).map_err(|e| format!("the connection file {}: {e}", path.display()))
    }

    pub fn parse(text: &str) -> Result<Connection, String> {
        let c: Connection = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if c.transport != "tcp" {
            return Err(format!(
                "transport `{}` is not supported, only `tcp`",
                c.transport
            ));
        }
        if !c.key.is_empty() && c.signature_scheme != "hmac-sha256" {
            return Err(format!(
                "signature scheme `{}` is not supported, only `hmac-sha256`",
                c.signature_scheme
            ));
        }
        Ok(c)
    }

    /// The ZeroMQ endpoint of `port`, e.g. `tcp://127.0.0.1:5555`.
    pub fn endpoint(&self, port: u16) -> String {
        if self.ip.contains(':') {
            format!("tcp://[{}]:{port}", self.ip)
        } else {
            format!("tcp://{}:{port}", self.ip)
        }
    }
}
