//! Fixed positions for benchmarks: the empty 9x9 and 19x19 boards and a middle game of each,
//! taken from GNU Go 3.8 self-play (level 1, seed 3): 9x9 after 30 moves, 19x19 after 120.

/// (name, SGF) pairs.
pub const BENCH: &[(&str, &str)] = &[
    ("9x9 empty", "(;GM[1]FF[4]SZ[9]KM[7.5])"),
    (
        "9x9 middle game",
        "(;GM[1]FF[4]SZ[9]KM[7.5];B[fd];W[cf];B[fg];W[dc];B[fc];W[dg];B[dd];W[cc];B[cd];W[bd];\
         B[be];W[bc];B[ce];W[bf];B[af];W[bh];B[eb];W[ab];B[ag];W[fh];B[eh];W[eg];B[gh];W[dh];\
         B[fi];W[ah];B[db];W[cb];B[ff];W[de])",
    ),
    ("19x19 empty", "(;GM[1]FF[4]SZ[19]KM[7.5])"),
    (
        "19x19 middle game",
        "(;GM[1]FF[4]SZ[19]KM[7.5];B[pd];W[do];B[dd];W[po];B[jq];W[cf];B[ch];W[ef];B[fd];W[gf];\
         B[hd];W[jc];B[pq];W[qq];B[qr];W[qp];B[or];W[qk];B[np];W[qf];B[dq];W[cq];B[cr];W[cp];\
         B[er];W[ck];B[fp];W[mc];B[hc];W[nn];B[pf];W[qg];B[qe];W[bd];B[cc];W[bc];B[oh];W[pi];\
         B[nf];W[cb];B[db];W[ec];B[bb];W[ed];B[ca];W[fe];B[ln];W[gb];B[fc];W[fb];B[ac];W[hb];\
         B[hf];W[gg];B[ge];W[ie];B[he];W[ig];B[fn];W[dm];B[oc];W[dh];B[cg];W[dg];B[be];W[bf];\
         B[ce];W[de];B[if];W[jf];B[gl];W[mo];B[lq];W[lo];B[jo];W[rf];B[re];W[rr];B[af];W[bg];\
         B[ll];W[qs];B[pr];W[nk];B[br];W[ke];B[ao];W[di];B[gj];W[nb];B[ob];W[ji];B[jl];W[bo];\
         B[ap];W[se];B[sd];W[sf];B[rc];W[oa];B[pa];W[na];B[nc];W[lb];B[qb];W[ag];B[bn];W[mm];\
         B[lm];W[bl];B[cn];W[dn];B[co];W[dp];B[ep];W[bp];B[aq];W[ae];B[cd];W[ph])",
    ),
];

/// The board of a benchmark position.
pub fn board(sgf: &str) -> super::Board {
    super::Record::from_sgf(sgf, None, None, 7.5)
        .expect("benchmark positions are valid")
        .board()
        .clone()
}

#[cfg(test)]
mod tests {
    #[test]
    fn positions_load() {
        for (name, sgf) in super::BENCH {
            let b = super::board(sgf);
            assert!(b.validate().is_ok(), "{name}");
        }
        assert_eq!(super::board(super::BENCH[3].1).size(), 19);
    }
}
