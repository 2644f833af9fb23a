//! `--engine` specifications: how to start one engine and which protocol to speak.

use crate::board::RankOrigin;
use crate::tournament::clock::TimeControl;
use std::path::PathBuf;

/// The protocol spoken with an engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Ucci,
    Uci,
}

/// What the user asked for: a protocol, or detection (UCCI first, then UCI).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProtocolChoice {
    Auto,
    Ucci,
    Uci,
}

/// How to start one engine, from `--engine key=value,...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    /// Display name (PGN tags, tables).
    pub name: String,
    /// Program to run.
    pub command: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory; by default the program's own folder (engines look for books and
    /// networks there, and XQWizard does the same).
    pub dir: Option<PathBuf>,
    /// Protocol to speak.
    pub protocol: ProtocolChoice,
    /// Move notation; `None` picks it from the handshake.
    pub notation: Option<RankOrigin>,
    /// Options sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// This engine's own time control (`tc=`), replacing the match's `--tc` for it: odds
    /// games, and levels measured against a reference searching to a fixed depth.
    pub tc: Option<TimeControl>,
    /// Think on the opponent's time (`ponder=on`): after each move the engine is given the
    /// move it predicted and `go ponder`, then `ponderhit` or `stop` as a GUI would.
    pub ponder: bool,
}

impl EngineSpec {
    /// Parses `cmd=PATH,name=N,proto=auto|ucci|uci,ranks=0|1,dir=D,arg=A,tc=TC,ponder=on|off,
    /// option.NAME=VALUE`.
    /// A first item without `=` is the command. `\,` puts a comma into a value.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut items = Vec::new();
        let mut cur = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&',') => {
                    cur.push(',');
                    chars.next();
                }
                ',' => items.push(std::mem::take(&mut cur)),
                c => cur.push(c),
            }
        }
        items.push(cur);
        let mut spec = EngineSpec {
            name: String::new(),
            command: PathBuf::new(),
            args: Vec::new(),
            dir: None,
            protocol: ProtocolChoice::Auto,
            notation: None,
            options: Vec::new(),
            tc: None,
            ponder: false,
        };
        for (i, item) in items.iter().enumerate() {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let Some((key, value)) = item.split_once('=') else {
                if i == 0 {
                    spec.command = PathBuf::from(item);
                    continue;
                }
                return Err(format!("engine item '{item}' is not key=value"));
            };
            let value = value.to_string();
            match key.trim() {
                "cmd" => spec.command = PathBuf::from(value),
                "name" => spec.name = value,
                "arg" => spec.args.push(value),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "tc" => spec.tc = Some(TimeControl::parse(&value)?),
                "ponder" => {
                    spec.ponder = match value.to_ascii_lowercase().as_str() {
                        "on" | "true" | "1" => true,
                        "off" | "false" | "0" => false,
                        _ => return Err(format!("ponder '{value}' is not on or off")),
                    }
                }
                "proto" => {
                    spec.protocol = match value.to_ascii_lowercase().as_str() {
                        "auto" => ProtocolChoice::Auto,
                        "ucci" => ProtocolChoice::Ucci,
                        "uci" => ProtocolChoice::Uci,
                        _ => return Err(format!("proto '{value}' is not auto, ucci or uci")),
                    }
                }
                "ranks" => {
                    spec.notation = match value.as_str() {
                        "0" => Some(RankOrigin::Zero),
                        "1" => Some(RankOrigin::One),
                        "auto" => None,
                        _ => return Err(format!("ranks '{value}' is not 0, 1 or auto")),
                    }
                }
                k => match k.strip_prefix("option.") {
                    Some(name) if !name.trim().is_empty() => {
                        spec.options.push((name.trim().to_string(), value))
                    }
                    _ => return Err(format!("unknown engine key '{k}'")),
                },
            }
        }
        if spec.command.as_os_str().is_empty() {
            return Err(format!("engine '{text}' has no cmd="));
        }
        if spec.name.is_empty() {
            spec.name = spec
                .command
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "engine".into());
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_syntax() {
        let s = EngineSpec::parse(
            "cmd=/opt/eleeye,name=ee,proto=ucci,option.usebook=false,arg=-x,option.Move Overhead=30",
        )
        .unwrap();
        assert_eq!(s.command, PathBuf::from("/opt/eleeye"));
        assert_eq!(s.name, "ee");
        assert_eq!(s.protocol, ProtocolChoice::Ucci);
        assert_eq!(s.args, vec!["-x"]);
        assert_eq!(
            s.options,
            vec![
                ("usebook".to_string(), "false".to_string()),
                ("Move Overhead".to_string(), "30".to_string())
            ]
        );
        let s = EngineSpec::parse("/usr/bin/fsf").unwrap();
        assert_eq!(s.name, "fsf");
        assert_eq!(s.protocol, ProtocolChoice::Auto);
        let s = EngineSpec::parse("cmd=x,option.bookfiles=a\\,b").unwrap();
        assert_eq!(s.options[0].1, "a,b");
        for bad in [
            "",
            "name=x",
            "cmd=x,proto=xboard",
            "cmd=x,colour=red",
            "cmd=x,ranks=2",
        ] {
            assert!(EngineSpec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_engine_may_have_its_own_time_control() {
        let s = EngineSpec::parse("cmd=eleeye,tc=depth=3").unwrap();
        assert_eq!(s.tc, Some(TimeControl::Depth(3)));
        let s = EngineSpec::parse("cmd=eleeye,tc=40/60:20/30+1,name=x").unwrap();
        assert!(matches!(s.tc, Some(TimeControl::Periods { .. })));
        assert_eq!(EngineSpec::parse("cmd=x").unwrap().tc, None);
        assert!(EngineSpec::parse("cmd=x,tc=fast").is_err());
    }

    #[test]
    fn pondering_is_asked_per_engine() {
        assert!(!EngineSpec::parse("cmd=x").unwrap().ponder);
        assert!(EngineSpec::parse("cmd=x,ponder=on").unwrap().ponder);
        assert!(EngineSpec::parse("cmd=x,ponder=TRUE").unwrap().ponder);
        assert!(!EngineSpec::parse("cmd=x,ponder=off").unwrap().ponder);
        assert!(EngineSpec::parse("cmd=x,ponder=maybe").is_err());
    }
}
