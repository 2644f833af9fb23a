//! The `jiangjun` binary: subcommands, or the protocol loop when run without arguments.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(code) = jiangjun::cli::run(&args) {
        std::process::exit(code);
    }
    std::process::exit(jiangjun::cli::run_protocol());
}
