/* The 8-puzzle's whole state space by breadth-first search, back from the goal: the peer
 * of benchmarks/c_bfs.py (issue 25).  A board is nine 4-bit cells in a uint64; the
 * visited set is an open-addressing hash table (no perfect hash: the plain program one
 * writes for a state space); a layer is an array of boards.  Prints the number of
 * states, the largest distance and how many states lie at it.
 *
 *     cc -O2 -o bfs8 bfs8.c && ./bfs8
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define SLOTS (1u << 20) /* > 2 x 181,440 */

static uint64_t *table;

static int insert(uint64_t key) { /* 1 when new; a board holds tiles 1 to 8: never 0 */
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    uint32_t i = (uint32_t)(h >> 44) & (SLOTS - 1);
    while (table[i]) {
        if (table[i] == key) return 0;
        i = (i + 1) & (SLOTS - 1);
    }
    table[i] = key;
    return 1;
}

static int cell(uint64_t b, int i) { return (int)((b >> (4 * i)) & 15); }

static uint64_t slide(uint64_t b, int from, int to) { /* the tile at `from` into `to` */
    uint64_t tile = (b >> (4 * from)) & 15;
    return (b & ~(15ull << (4 * from))) | (tile << (4 * to));
}

int main(void) {
    table = calloc(SLOTS, sizeof *table);
    uint64_t *layer = malloc(sizeof(uint64_t) * 200000), *next = malloc(sizeof(uint64_t) * 200000);
    if (!table || !layer || !next) return 1;
    uint64_t goal = 0; /* 1 2 3 / 4 5 6 / 7 8 _ */
    for (int i = 0; i < 8; i++) goal |= (uint64_t)(i + 1) << (4 * i);
    size_t size = 1, total = 1, last = 1;
    int depth = 0;
    layer[0] = goal;
    insert(goal);
    while (size) {
        size_t n = 0;
        for (size_t k = 0; k < size; k++) {
            uint64_t b = layer[k];
            int blank = 0;
            while (cell(b, blank)) blank++;
            int r = blank / 3, c = blank % 3;
            int around[4] = {r > 0 ? blank - 3 : -1, r < 2 ? blank + 3 : -1,
                             c > 0 ? blank - 1 : -1, c < 2 ? blank + 1 : -1};
            for (int m = 0; m < 4; m++) {
                if (around[m] < 0) continue;
                uint64_t s = slide(b, around[m], blank);
                if (insert(s)) next[n++] = s;
            }
        }
        if (!n) break;
        uint64_t *t = layer; layer = next; next = t;
        size = n; total += n; last = n; depth++;
    }
    printf("states %zu max %d farthest %zu\n", total, depth, last);
    return 0;
}
