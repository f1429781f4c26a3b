// gdsl play without a position.
play {case} # exit 2
