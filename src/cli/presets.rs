//! `huntsolve presets`: every preset with a one-line description.

use super::args::Json;
use super::out;
use huntsolve::Result;

/// Arguments of `presets`.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
    #[command(flatten)]
    pub(crate) json: Json,
}

/// Lists the presets.
pub(crate) fn run(args: Args) -> Result<()> {
    let presets = huntsolve::all_presets();
    if args.json.json {
        let v: Vec<_> = presets
            .iter()
            .map(|(f, n, d)| serde_json::json!({"family": f, "name": n, "description": d}))
            .collect();
        return out::println(&serde_json::to_string_pretty(&v).unwrap_or_default());
    }
    let mut text = String::new();
    for (family, name, desc) in presets {
        text.push_str(&format!("{name:<28} {family:<5} {desc}\n"));
    }
    out::print(&text)
}
