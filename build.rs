//! Names the build: in a git checkout, `TABAS_COMMIT` is the short hash of `HEAD`
//! (`id name Tabas 0.1.0-dev-1a2b3c4`), unless `HEAD` is the release's own tag
//! `v<version>`. Without git (a release tarball, or git not installed) nothing is
//! set and the build is plain `Tabas 0.1.0`. Naming never fails the build.
//!
//! Chooses the built-in network: `src/nnue/default.nnue`, or the file the environment
//! variable `TABAS_EVALFILE` names (`make EVALFILE=…`, as OpenBench builds a test with
//! its own network). A `TABAS_EVALFILE` that names no file fails the build.
//!
//! Checked by hand in a scratch repository: a commit, a checkout of the tag and back
//! each rename the build at the next `cargo build`, and nothing is rebuilt when
//! nothing moved. One gap: a tree built without git that becomes a repository later
//! (`git init`) keeps its plain name until `build.rs` changes or `cargo clean`
//! (watching a path that does not exist yet would rebuild the crate every time).

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// Rebuild when `HEAD` moves: `HEAD` itself (a checkout), the branch's ref file
/// (a commit) and `packed-refs`; also the tags. Only existing paths: cargo reruns a
/// build script every time for a path that does not exist.
fn watch(path: &str) {
    if let Some(p) = git(&["rev-parse", "--git-path", path])
        && Path::new(&p).exists()
    {
        println!("cargo:rerun-if-changed={p}");
    }
}

/// `TABAS_EVALFILE`, if set: its path for `src/nnue/mod.rs` (`include_bytes!`), and the
/// cfg `tabas_evalfile` that makes it the built-in network.
fn choose_network(manifest: &str) {
    println!("cargo:rerun-if-env-changed=TABAS_EVALFILE");
    println!("cargo::rustc-check-cfg=cfg(tabas_evalfile)");
    let Ok(name) = std::env::var("TABAS_EVALFILE") else {
        return;
    };
    if name.is_empty() {
        return;
    }
    // (An absolute path replaces the manifest directory.)
    let path = Path::new(manifest).join(&name);
    if !path.is_file() {
        panic!("TABAS_EVALFILE={name}: no such file");
    }
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rustc-env=TABAS_EVALFILE_PATH={}", path.display());
    println!("cargo:rustc-cfg=tabas_evalfile");
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    choose_network(&manifest);
    // A `.git` of our own (a directory, or a worktree's file): not some enclosing
    // repository that a tarball was unpacked into.
    if !Path::new(&manifest).join(".git").exists() {
        return;
    }
    watch("HEAD");
    watch("packed-refs");
    watch("refs/tags");
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch(&branch);
    }
    let Some(commit) = git(&["rev-parse", "--short", "HEAD"]) else {
        return;
    };
    let release_tag = format!(
        "v{}",
        std::env::var("CARGO_PKG_VERSION").unwrap_or_default()
    );
    let tags = git(&["tag", "--points-at", "HEAD"]).unwrap_or_default();
    if tags.lines().any(|t| t == release_tag) {
        return;
    }
    if commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        println!("cargo:rustc-env=TABAS_COMMIT={commit}");
    }
}
