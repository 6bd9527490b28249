//! `loony kernel install` and `uninstall`: the kernelspec (`kernels/loony/kernel.json` and the
//! logos) under a Jupyter data directory, where `jupyter`, JupyterLab and VS Code look.

use resvg::{tiny_skia, usvg};
use serde_json::json;
use std::path::{Path, PathBuf};

/// The kernel's name: the folder under `kernels/` and `jupyter console --kernel loony`.
pub const NAME: &str = "loony";

/// A crescent moon (Loony's ☾), drawn without text so it needs no font.
pub const LOGO_SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
<rect width="64" height="64" rx="12" fill="#1d2b53"/>
<path d="M40 10 A 23 23 0 1 0 54 44 A 18 18 0 1 1 40 10 Z" fill="#ffd34e"/>
<circle cx="46" cy="18" r="3" fill="#ffffff"/>
</svg>
"##;

/// Where the kernelspec goes: `--prefix DIR` means `DIR/share/jupyter/kernels`; `--user` (the
/// default) Jupyter's user data directory: `$JUPYTER_DATA_DIR`, else `$XDG_DATA_HOME/jupyter`,
/// else `~/.local/share/jupyter`, as `jupyter --paths` lists it on Linux.
pub fn kernels_dir(prefix: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(p) = prefix {
        return Ok(p.join("share").join("jupyter").join("kernels"));
    }
    let nonempty = |v: &str| std::env::var_os(v).filter(|s| !s.is_empty());
    if let Some(d) = nonempty("JUPYTER_DATA_DIR") {
        return Ok(PathBuf::from(d).join("kernels"));
    }
    if let Some(d) = nonempty("XDG_DATA_HOME") {
        return Ok(PathBuf::from(d).join("jupyter").join("kernels"));
    }
    let home = nonempty("HOME").ok_or("HOME is not set: give --prefix DIR")?;
    Ok(PathBuf::from(home).join(".local/share/jupyter/kernels"))
}

/// The `kernel.json` that starts `exe` as a kernel.
pub fn kernel_json(exe: &Path) -> serde_json::Value {
    json!({
        "argv": [exe.to_string_lossy(), "kernel", "--connection-file", "{connection_file}"],
        "display_name": "Loony",
        "language": "loony",
        "interrupt_mode": "signal",
        "metadata": { "debugger": false },
    })
}

/// Writes the kernelspec into `kernels/loony/`, replacing one that is there; returns its folder.
pub fn install(kernels: &Path) -> Result<PathBuf, String> {
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| format!("cannot find the path of this loony binary: {e}"))?;
    let dir = kernels.join(NAME);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    let spec = serde_json::to_string_pretty(&kernel_json(&exe))
        .map_err(|e| format!("cannot write kernel.json: {e}"))?;
    write("kernel.json", format!("{spec}\n").as_bytes())?;
    write("logo-svg.svg", LOGO_SVG.as_bytes())?;
    for size in [32, 64] {
        write(&format!("logo-{size}x{size}.png"), &logo_png(size)?)?;
    }
    Ok(dir)
}

/// Removes `kernels/loony/`; an error when there is none.
pub fn uninstall(kernels: &Path) -> Result<PathBuf, String> {
    let dir = kernels.join(NAME);
    if !dir.join("kernel.json").is_file() {
        return Err(format!("no Loony kernelspec in {}", kernels.display()));
    }
    std::fs::remove_dir_all(&dir).map_err(|e| format!("cannot remove {}: {e}", dir.display()))?;
    Ok(dir)
}

/// The logo as a `size` × `size` PNG.
pub fn logo_png(size: u32) -> Result<Vec<u8>, String> {
    let tree = usvg::Tree::from_str(LOGO_SVG, &usvg::Options::default())
        .map_err(|e| format!("the logo: {e}"))?;
    let mut pixmap =
        tiny_skia::Pixmap::new(size, size).ok_or_else(|| format!("cannot draw {size} pixels"))?;
    let scale = size as f32 / tree.size().width();
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| format!("the logo's PNG: {e}"))
}
