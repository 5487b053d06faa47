package spec

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/format")

// The files testdata/format/*.txtar hold an input sentinel file and its
// canonical form ("-- input.ssl --", "-- canonical.ssl --"); go test
// ./spec -update rewrites the canonical part.

type archiveFile struct {
	name string
	data []byte
}

// parseTxtar reads the txtar format (golang.org/x/tools/txtar, which a
// library of the standard library only cannot import): a comment, then
// files introduced by "-- name --" lines.
func parseTxtar(data []byte) (comment []byte, files []archiveFile) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	cur := -1
	for _, l := range lines {
		s := strings.TrimRight(string(l), "\n")
		if strings.HasPrefix(s, "-- ") && strings.HasSuffix(s, " --") && len(s) >= 6 {
			files = append(files, archiveFile{name: strings.TrimSpace(s[3 : len(s)-3])})
			cur = len(files) - 1
			continue
		}
		if cur < 0 {
			comment = append(comment, l...)
		} else {
			files[cur].data = append(files[cur].data, l...)
		}
	}
	return comment, files
}

func formatTxtar(comment []byte, files []archiveFile) []byte {
	var b bytes.Buffer
	b.Write(comment)
	for _, f := range files {
		b.WriteString("-- " + f.name + " --\n")
		b.Write(f.data)
	}
	return b.Bytes()
}

func TestFormatGolden(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "format", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no golden files")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			comment, files := parseTxtar(data)
			var input []byte
			canon := -1
			for i, f := range files {
				switch f.name {
				case "input.ssl":
					input = f.data
				case "canonical.ssl":
					canon = i
				}
			}
			got, err := Format(path, input)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if canon < 0 {
					files = append(files, archiveFile{name: "canonical.ssl"})
					canon = len(files) - 1
				}
				files[canon].data = got
				if err := os.WriteFile(path, formatTxtar(comment, files), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if canon < 0 {
				t.Fatal("no canonical.ssl; run go test ./spec -update")
			}
			if !bytes.Equal(got, files[canon].data) {
				t.Errorf("canonical form differs (go test ./spec -update rewrites it):\n got:\n%s\nwant:\n%s", got, files[canon].data)
			}
			again, err := Format(path, got)
			if err != nil || !bytes.Equal(again, got) {
				t.Errorf("the canonical form is not a fixed point: %v\n%s", err, again)
			}
		})
	}
}

// TestFormatLayoutProperty formats files of random layout: sentinels whose
// clauses come in any order, some over two lines, with comments on lines
// of their own (indented or not), at the end of lines and inside clauses,
// and blank lines anywhere. The canonical form must be a fixed point, keep
// every comment, and keep a comment written before a clause before it.
func TestFormatLayoutProperty(t *testing.T) {
	clauses := []string{
		"Monitor keywords {a,\n b}", "Fetch 1 hour", "Confirm after 1 minute", "From 1/1/2030", "To 1/1/2031",
		"Notify By email a@b.example", "Every 1 day", "Compare pairwise",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	n := 0
	comment := func() string { n++; return "# c" + strconv.Itoa(n) }
	for iter := range 2000 {
		n = 0
		var b strings.Builder
		before := map[string]string{} // a comment written on the line before a clause -> the clause's keyword
		nl := func() {
			if rng.IntN(4) == 0 {
				b.WriteString("\n") // a blank line
			}
			b.WriteString("\n")
		}
		for s := range 1 + rng.IntN(3) {
			if rng.IntN(2) == 0 {
				b.WriteString(comment())
				nl()
			}
			fmt.Fprintf(&b, "Create Sentinel s%d Using http://a.example/%d", s, s)
			for _, i := range rng.Perm(len(clauses))[:rng.IntN(len(clauses)+1)] {
				cl := clauses[i]
				if rng.IntN(3) == 0 {
					cl = strings.Replace(cl, "\n", " "+comment()+"\n", 1) // inside the clause
				}
				switch rng.IntN(3) {
				case 0:
					if strings.Contains(b.String()[strings.LastIndex(b.String(), "\n")+1:], "#") {
						b.WriteString("\n") // a comment ends that line
					}
					b.WriteString(" " + cl) // on the line before's end
				default:
					nl()
					if rng.IntN(2) == 0 {
						c := comment()
						b.WriteString(strings.Repeat("  ", rng.IntN(2)) + c)
						before[c] = strings.Fields(cl)[0]
						nl()
					}
					b.WriteString("  " + cl)
				}
				if rng.IntN(3) == 0 {
					b.WriteString(" " + comment())
				}
			}
			nl()
			if rng.IntN(2) == 0 {
				b.WriteString(strings.Repeat("  ", rng.IntN(2)) + comment())
				nl()
			}
		}
		src := b.String()
		f, err := Parse("p.ssl", []byte(src))
		if err != nil {
			t.Fatalf("%d: %v\n%s", iter, err, src)
		}
		out := Print(f)
		g, err := Parse("q.ssl", []byte(out))
		if err != nil {
			t.Fatalf("%d: the canonical form does not parse: %v\n%s", iter, err, out)
		}
		if again := Print(g); again != out {
			t.Fatalf("%d: not a fixed point\ninput:\n%s\nprinted:\n%s\nreprinted:\n%s", iter, src, out, again)
		}
		if got, want := commentTexts(g), commentTexts(f); !slices.Equal(got, want) {
			t.Fatalf("%d: comments %q, want %q\n%s", iter, got, want, out)
		}
		// Each sentinel printed alone with its comments (Split), the
		// parts one blank line apart, is the file's canonical form.
		var parts []string
		for _, p := range Split(f) {
			parts = append(parts, Print(p))
		}
		if joined := strings.Join(parts, "\n"); joined != out {
			t.Fatalf("%d: the parts differ from the file\ninput:\n%s\nprinted:\n%s\nparts:\n%s", iter, src, out, joined)
		}
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			c := strings.TrimSpace(l)
			kw, ok := before[c]
			if !ok {
				continue
			}
			// The next line that is neither a comment nor blank holds
			// the clause (From and To share one).
			j := i + 1
			for j < len(lines) && (strings.HasPrefix(strings.TrimSpace(lines[j]), "#") || lines[j] == "") {
				j++
			}
			if j == len(lines) || !strings.Contains(lines[j], kw+" ") {
				t.Fatalf("%d: %s is no longer before %s\ninput:\n%s\nprinted:\n%s", iter, c, kw, src, out)
			}
		}
	}
}
