#!/usr/bin/env bash
# Screenshots of each family's pictures, made with headless Chromium (apt-get install chromium).
# Run from the repository root with the package installed: bash docs/pictures/make.sh
set -euo pipefail
out=docs/pictures
tmp=$(mktemp -d)
shot() {  # shot PAGE PNG WIDTH,HEIGHT
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
        --window-size="$3" --screenshot="$out/$2" "file://$tmp/$1" >/dev/null 2>&1
}
cpsolve show sudoku_inkala --html "$tmp/grid.html"
cpsolve show knight_8x8 --html "$tmp/tour.html"
cpsolve show hoppers --plan --html "$tmp/pegs.html"
cpsolve show onoff --plan --html "$tmp/sliding.html"
cpsolve show water_jugs --plan --html "$tmp/transition.html"
cpsolve show xsudoku5 --gallery 8 --html "$tmp/gallery.html"
cpsolve analyze eight_puzzle --html "$tmp/analysis.html" >/dev/null
shot grid.html grid.png 560,600
shot tour.html tour.png 560,600
shot 'pegs.html#step-5' pegs.png 1200,720
shot 'sliding.html#step-3' sliding.png 1200,640
shot 'transition.html#step-4' transition.png 1200,620
shot gallery.html gallery.png 900,520
shot analysis.html analysis.png 1000,640
rm -rf "$tmp"
