//! When and how long a report's games took to play, apart from how long the
//! report took to make: a report rendered again from stored games (the games
//! files of `compare --out DIR`, read back on a rerun) printed the rendering's
//! 0.6 s as the run's time ("Time: 0.6 s wall for this run" on a 200-game ladder).
//! Each game record keeps the time it was played ([`GameRecord::played_at`]);
//! records stored before that was kept count as "not recorded".

use crate::stats::tournament::GameRecord;
use std::fmt::Write;

/// The games behind a report: how many, how many this run played, their own wall
/// time, and the span of their times of play.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Played {
    /// Games counted.
    pub games: u64,
    /// Games played by the run that made the report (the rest were read from
    /// stored games).
    pub now: u64,
    /// Sum of the games' own wall times, seconds (wherever and whenever they ran).
    pub seconds: f64,
    /// Start of the earliest game that recorded its time of play (Unix seconds, UTC).
    pub first: Option<u64>,
    /// End of the latest such game (Unix seconds, UTC).
    pub last: Option<u64>,
    /// Games whose record has no time of play (stored before it was kept).
    pub unrecorded: u64,
}

impl Played {
    /// The games `records`, of which `now` were played by this run.
    pub(crate) fn of(records: &[GameRecord], now: u64) -> Played {
        let mut p = Played {
            games: records.len() as u64,
            now: now.min(records.len() as u64),
            ..Played::default()
        };
        for r in records {
            p.seconds += r.millis as f64 / 1000.0;
            match r.played_at {
                Some(end) => {
                    let start = end.saturating_sub(r.millis / 1000);
                    p.first = Some(p.first.map_or(start, |f| f.min(start)));
                    p.last = Some(p.last.map_or(end, |l| l.max(end)));
                }
                None => p.unrecorded += 1,
            }
        }
        p
    }

    /// Both sets of games together.
    pub(crate) fn add(&mut self, other: &Played) {
        self.games += other.games;
        self.now += other.now;
        self.seconds += other.seconds;
        self.unrecorded += other.unrecorded;
        self.first = match (self.first, other.first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.last = match (self.last, other.last) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }

    /// The report's lines on time (Markdown list items): when and how long the games
    /// took to play, then what the run that made the report did in `wall_seconds`.
    pub(crate) fn lines(&self, wall_seconds: f64) -> String {
        let mut s = String::new();
        let when = match (self.first, self.last) {
            (Some(a), Some(b)) if self.unrecorded == 0 => format!("played {}", span(a, b)),
            (Some(a), Some(b)) => format!(
                "played {} ({} of them stored without their time of play)",
                span(a, b),
                self.unrecorded
            ),
            _ => "time of play not recorded (stored before it was kept)".to_string(),
        };
        let _ = writeln!(
            s,
            "- Games: {} games, {when}; {:.1} s of play summed over the games' own wall times",
            self.games, self.seconds
        );
        let stored = self.games - self.now;
        let run = if self.now == 0 && self.games > 0 {
            format!(
                "- This rendering: {wall_seconds:.1} s wall, reading the {stored} stored games and writing the report (no game played)"
            )
        } else {
            format!(
                "- This run: {wall_seconds:.1} s wall, playing {} games ({stored} read from the stored games)",
                self.now
            )
        };
        s.push_str(&run);
        s.push('\n');
        s
    }
}

/// `2026-12-03 12:40 to 13:05 UTC` (the day once when both ends share it).
fn span(first: u64, last: u64) -> String {
    let (a, b) = (utc(first), utc(last));
    if a.0 == b.0 {
        format!("{} {} to {} UTC", a.0, a.1, b.1)
    } else {
        format!("{} {} to {} {} UTC", a.0, a.1, b.0, b.1)
    }
}

/// The UTC date (`YYYY-MM-DD`) and time (`HH:MM`) of Unix time `secs`. Written
/// here: a date and clock face are the only calendar work, not worth a
/// dependency (days to civil date by H. Hinnant's `civil_from_days`).
fn utc(secs: u64) -> (String, String) {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        format!("{year:04}-{month:02}-{day:02}"),
        format!("{:02}:{:02}", rem / 3_600, rem % 3_600 / 60),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_known_unix_times() {
        assert_eq!(utc(0), ("1970-01-01".into(), "00:00".into()));
        // 2000-02-29 (a leap day of a century leap year) 12:34:56.
        assert_eq!(utc(951_827_696), ("2000-02-29".into(), "12:34".into()));
        // 2026-12-03 12:55 UTC.
        assert_eq!(utc(1_796_302_500), ("2026-12-03".into(), "12:55".into()));
        assert_eq!(
            span(1_796_302_500, 1_796_302_500 + 86_400),
            "2026-12-03 12:55 to 2026-12-04 12:55 UTC"
        );
    }

    #[test]
    fn stored_games_are_not_the_rendering() {
        let p = Played {
            games: 200,
            now: 0,
            seconds: 812.0,
            first: Some(1_796_302_500),
            last: Some(1_796_304_000),
            unrecorded: 0,
        };
        let text = p.lines(0.6);
        assert!(
            text.contains("200 games, played 2026-12-03 12:55 to 13:20 UTC")
                && text.contains("812.0 s of play")
                && text.contains("This rendering: 0.6 s wall, reading the 200 stored games"),
            "{text}"
        );
        let old = Played {
            first: None,
            last: None,
            unrecorded: 200,
            ..p
        };
        assert!(
            old.lines(0.6).contains("not recorded"),
            "{}",
            old.lines(0.6)
        );
    }
}
