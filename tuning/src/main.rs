//! `tetrarch-tune`: match runner, statistics and tuners. Not yet implemented.

fn main() {
    eprintln!("tetrarch-tune: nothing here yet");
    std::process::exit(2);
}
