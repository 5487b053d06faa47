package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/quality"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

func init() {
	register(&command{
		name:    "bench quality",
		summary: "measure how close deltas are to the minimum (r = C / C_ref) and to the simulator's",
		run:     runBenchQuality,
		// Computation alone, with nothing to clean up: Ctrl-C ends it at once.
		exitOnInterrupt: true,
	})
}

// defaultCorpus returns the shared corpus when it is beside the repository,
// else the subset kept in testdata.
func defaultCorpus() string {
	for _, dir := range []string{"../shared/corpus", "testdata/corpus"} {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return dir
		}
	}
	return ""
}

func runBenchQuality(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newDescribedFlags(env, "bench quality", "[flags]",
		"Bench quality measures how close the deltas of Vigil's default and of\n"+
			"the seed's XyDiff are to the minimum: r = C / C_ref, a delta's cost\n"+
			"against the exact tree edit distance (a move costing a delete and an\n"+
			"insert), and C / C_perfect, against the change simulator's own delta\n"+
			"(a move costing 1), on simulated pairs of each shape and rate, then on\n"+
			"the consecutive versions of the real histories of --corpus.")
	size := fs.Int("size", 12000, "size in bytes of the simulated documents (the exact reference is quadratic)")
	seeds := fs.Int("seeds", 10, "simulated pairs per shape and rate")
	corpus := fs.String("corpus", defaultCorpus(), "folder of real histories (vNNNN.xml|html per folder); empty to skip")
	maxPairs := fs.Int("max-pairs", 16<<20, "largest real pair, in node pairs, given to the exact reference")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 0); err != nil {
		return exitError, err
	}
	if *seeds < 1 {
		return exitError, fmt.Errorf("--seeds %d: want at least 1", *seeds)
	}
	if *size < 1 {
		return exitError, fmt.Errorf("--size %d: want at least 1", *size)
	}
	if *maxPairs < 1 {
		return exitError, fmt.Errorf("--max-pairs %d: want at least 1", *maxPairs)
	}
	// Checked now, not after the simulated pairs are measured.
	var histories []history
	if *corpus != "" {
		st, err := os.Stat(*corpus)
		if err != nil {
			return exitError, fmt.Errorf("--corpus %s: %w", *corpus, err)
		}
		if !st.IsDir() {
			return exitError, fmt.Errorf("--corpus %s: not a folder", *corpus)
		}
		if histories, err = corpusHistories(*corpus); err != nil {
			return exitError, fmt.Errorf("--corpus %s: %w", *corpus, err)
		}
	}
	w := bufio.NewWriter(env.stdout)
	defer w.Flush()
	algs := []treediff.Algorithm{treediff.Vigil, treediff.XyDiff}
	fmt.Fprintf(w, "vigil bench quality: %d simulated pairs per shape and rate (4 shapes, about %d bytes each)\n", *seeds, *size)
	fmt.Fprintln(w, "r = C / C_ref: no moves simulated, a move costs delete+insert, C_ref = exact minimum (Selkow)")
	fmt.Fprintln(w, "C / C_perfect: moves simulated at cost 1, against the simulator's own delta")
	for _, rate := range []float64{0.01, 0.1, 0.3} {
		noMoves, err := quality.Simulated(rate, false, *size, *seeds)
		if err != nil {
			return exitError, err
		}
		withMoves, err := quality.Simulated(rate, true, *size, *seeds)
		if err != nil {
			return exitError, err
		}
		for _, alg := range algs {
			opt := &treediff.Options{Algorithm: alg}
			var rs, ps []float64
			for _, c := range noMoves {
				res, err := quality.Measure(c, opt, true)
				if err != nil {
					return exitError, err
				}
				rs = append(rs, res.R)
			}
			for _, c := range withMoves {
				res, err := quality.Measure(c, opt, false)
				if err != nil {
					return exitError, err
				}
				ps = append(ps, res.RPerfect)
			}
			fmt.Fprintf(w, "%3.0f%% %-7s r: %s | C/C_perfect: %s\n", rate*100, alg, quality.Summarise(rs), quality.Summarise(ps))
			w.Flush()
		}
	}
	if *corpus != "" {
		if err := realPairs(w, *corpus, histories, algs, *maxPairs); err != nil {
			return exitError, err
		}
	} else if !flagSet(fs, "corpus") {
		// Run away from the repository: said, rather than a section
		// missing without a word.
		fmt.Fprintln(w, "real pairs: skipped, no corpus found (../shared/corpus or testdata/corpus); --corpus DIR names one")
	}
	return exitOK, nil
}

// history is one folder of successive versions of a document.
type history struct {
	name  string   // the folder's name
	files []string // its versions, vNNNN.xml or vNNNN.html, oldest first
}

// corpusHistories returns the histories of the corpus root: each of its
// folders that holds two versions or more (v*.xml or v*.html, in the
// order of their names), and root itself when it holds versions, as
// /work/shared/corpus/go-spec does: one history rather than none. A
// corpus without a history is an error that says what was expected.
func corpusHistories(root string) ([]history, error) {
	var hs []history
	files, err := historyFiles(root)
	if err != nil {
		return nil, err
	}
	if len(files) >= 2 {
		hs = append(hs, history{filepath.Base(filepath.Clean(root)), files})
	}
	dirs, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, err := historyFiles(filepath.Join(root, d.Name()))
		if err != nil {
			return nil, err
		}
		if len(files) >= 2 {
			hs = append(hs, history{d.Name(), files})
		}
	}
	if len(hs) == 0 {
		what := "no history"
		if len(files) == 1 {
			what = "one version (" + filepath.Base(files[0]) + "), no history"
		}
		return nil, fmt.Errorf("%s: want folders of two versions or more (v0001.xml, v0002.xml, ... or .html), or such versions in the folder itself", what)
	}
	return hs, nil
}

// historyFiles returns the versions in dir, v*.xml and v*.html files,
// sorted by name.
func historyFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasPrefix(name, "v") || !(strings.HasSuffix(name, ".xml") || strings.HasSuffix(name, ".html")) {
			continue
		}
		files = append(files, filepath.Join(dir, name))
	}
	sort.Strings(files)
	return files, nil
}

// realPairs measures every consecutive pair of the histories of the
// corpus root: the cost of each algorithm's delta, and r where the exact
// reference fits.
func realPairs(w io.Writer, root string, histories []history, algs []treediff.Algorithm, maxPairs int) error {
	fmt.Fprintf(w, "real pairs from %s (consecutive versions):\n", root)
	for _, h := range histories {
		files := h.files
		rs := map[treediff.Algorithm][]float64{}
		costs := map[treediff.Algorithm]int{}
		pairs, skipped := 0, 0
		for k := 0; k+1 < len(files); k++ {
			a, err := parseDocFile(files[k])
			if err != nil {
				return err
			}
			b, err := parseDocFile(files[k+1])
			if err != nil {
				return err
			}
			pairs++
			ref := -1
			if estimatePairs(a, b) <= maxPairs {
				if r, err := quality.ReferenceCost(a, b); err == nil {
					ref = r
				}
			}
			if ref < 0 {
				skipped++
			}
			for _, alg := range algs {
				x, y := a.Clone(), b.Clone()
				dl, err := treediff.Diff(x, y, &treediff.Options{Algorithm: alg})
				if err != nil {
					return fmt.Errorf("%s: %w", files[k], err)
				}
				c := delta.EditCost(dl, x, delta.MoveDeleteInsert)
				costs[alg] += c
				if ref >= 0 {
					r := 1.0
					if ref > 0 {
						r = float64(c) / float64(ref)
					} else if c > 0 {
						r = math.Inf(1)
					}
					rs[alg] = append(rs[alg], r)
				}
			}
		}
		fmt.Fprintf(w, "  %-30s %3d pairs (%d too large for the exact reference)", h.name, pairs, skipped)
		for _, alg := range algs {
			fmt.Fprintf(w, " | %s total cost %d, r %s", alg, costs[alg], quality.Summarise(rs[alg]))
		}
		fmt.Fprintln(w)
	}
	return nil
}

func parseDocFile(path string) (*tree.Document, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	d, _, err := markup.ParseBytes(b, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// estimatePairs bounds the node pairs the exact reference would tabulate.
func estimatePairs(a, b *tree.Document) int {
	return a.Root.Size() * b.Root.Size() / 4
}
