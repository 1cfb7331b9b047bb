#!/usr/bin/env bash
# Compile-time cost of the derive: a generated crate of N forms (default 200) deriving
# `Elicit` + `Deserialize`, against the same forms deriving `schemars::JsonSchema` +
# `Deserialize` (the rmcp `from_type` route). Each crate is built once to compile its
# dependencies, then cleaned and rebuilt alone: the time of that crate only, debug and
# release.
#
#   benches/compile-time/run.sh [N] [WORKDIR]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
N="${1:-200}"
WORK="${2:-$ROOT/target/compile-time}"
mkdir -p "$WORK"

form() { # $1 = index, $2 = route
  local i="$1"
  if [ "$2" != schemars ]; then
    derive='#[derive(elicit_core::Elicit, serde::Deserialize)]'
    cat <<RS
/// Form $i.
$derive
#[serde(rename_all = "camelCase")]
pub struct Form$i {
    /// Your full name.
    #[elicit(title = "Name", min_length = 1, max_length = 100)]
    pub full_name: String,
    /// Where we write to you.
    #[elicit(title = "E-mail", format = "email")]
    pub email: String,
    /// In years.
    #[elicit(title = "Age", minimum = 0, maximum = 150)]
    pub age: u8,
    /// Tick to get the newsletter.
    #[elicit(title = "Newsletter", default = false)]
    pub newsletter: bool,
    /// Optional.
    #[elicit(title = "Birthday", format = "date")]
    pub birthday: Option<String>,
    /// Bucket size.
    #[elicit(title = "Size")]
    pub size: Option<Size>,
}
RS
  else
    cat <<RS
/// Form $i.
#[derive(schemars::JsonSchema, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Form$i {
    /// Your full name.
    #[schemars(title = "Name", length(min = 1, max = 100))]
    pub full_name: String,
    /// Where we write to you.
    #[schemars(title = "E-mail", email)]
    pub email: String,
    /// In years.
    #[schemars(title = "Age", range(min = 0, max = 150))]
    pub age: u8,
    /// Tick to get the newsletter.
    #[schemars(title = "Newsletter")]
    #[serde(default)]
    pub newsletter: bool,
    /// Optional.
    #[schemars(title = "Birthday", extend("format" = "date"))]
    pub birthday: Option<String>,
    /// Bucket size.
    #[schemars(title = "Size")]
    pub size: Option<Size>,
}
RS
  fi
}

generate() { # $1 = elicit | schemars
  local dir="$WORK/gen-$1"
  mkdir -p "$dir/src"
  if [ "$1" = elicit ]; then
    deps="elicit-core = { path = \"$ROOT/elicit-core\" }"
    size='#[derive(elicit_core::Elicit, serde::Deserialize)]
pub enum Size {
    #[elicit(title = "Small")]
    Small,
    #[elicit(title = "Large")]
    Large,
}'
  else
    deps='schemars = "1.0"'
    size='#[derive(schemars::JsonSchema, serde::Deserialize)]
pub enum Size {
    /// Small
    Small,
    /// Large
    Large,
}'
  fi
  cat >"$dir/Cargo.toml" <<TOML
[package]
name = "gen-$1"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
serde = { version = "1", features = ["derive"] }
$deps

[workspace]
TOML
  {
    echo "//! $N generated forms ($1)."
    echo "#![allow(missing_docs)]"
    echo "$size"
    for i in $(seq 1 "$N"); do form "$i" "$1"; done
  } >"$dir/src/lib.rs"
  echo "$dir"
}

seconds() { # runs "$@", prints the wall time in seconds; a failed build stops the script
  local start end out
  start=$(date +%s.%N)
  if ! out="$("$@" 2>&1)"; then
    echo "$out" >&2
    return 1
  fi
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}

echo "| route ($N forms) | debug | release |"
echo "|---|---|---|"
for route in ${ROUTES:-elicit schemars}; do
  dir="$(generate "$route")"
  (
    cd "$dir"
    export CARGO_TARGET_DIR="$WORK/target-$route"
    cargo build --quiet && cargo build --quiet --release
    cargo clean --quiet -p "gen-$route" && cargo clean --quiet --release -p "gen-$route"
    debug="$(seconds cargo build)" || exit 1
    release="$(seconds cargo build --release)" || exit 1
    echo "| $route | ${debug} s | ${release} s |"
  )
done
