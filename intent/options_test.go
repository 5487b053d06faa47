package intent

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-web/vigil/spec"
)

// TestOptimize checks the repaired Phase III: whole second-level subtrees
// that are reordered are reported as moves of their leaves, and changes
// inside other subtrees are found as without the optimisation.
func TestOptimize(t *testing.T) {
	old := `<R><A><p>a1</p><p>a2</p></A><B><p>b1</p></B><C><p>c1</p><p>c2</p></C><D><p>d1</p></D></R>`
	new := `<R><B><p>b1</p></B><A><p>a1</p><p>a2</p></A><C><p>c1</p><p>c2x</p></C><D><p>d1</p></D></R>`
	for _, opt := range []*Options{{}, {Optimize: true}} {
		r := evalType(t, old, new, &spec.ChangeType{Kind: spec.AnyChange}, opt)
		var moves, updates int
		for _, c := range r.Changes {
			switch c.Op {
			case Move:
				moves++
			case Update:
				updates++
				if c.Old != "c2" || c.New != "c2x" {
					t.Errorf("optimize=%v: update %+v", opt.Optimize, c)
				}
			default:
				t.Errorf("optimize=%v: unexpected %s", opt.Optimize, brief(c))
			}
		}
		if updates != 1 || (moves != 1 && moves != 2) {
			t.Errorf("optimize=%v: %v", opt.Optimize, briefs(r.Changes))
		}
		kw := evalType(t, old, new, &spec.ChangeType{Kind: spec.Keywords, Args: lits("a2", "c2x")}, opt)
		if got := briefs(kw.Changes); !slices.Contains(got, "insert_keyword(c2x,5)") || slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "c2x") && strings.HasPrefix(s, "delete") }) {
			t.Errorf("optimize=%v: keywords %v", opt.Optimize, got)
		}
	}
}

func TestEvaluateErrors(t *testing.T) {
	p := NewPair(parseDoc(t, `<html><body><p>x</p></body></html>`), parseDoc(t, `<html><body><p>y</p></body></html>`), nil, nil)
	_, err := p.Evaluate(&spec.ChangeType{Kind: spec.AnyChange, Scope: &spec.Selector{Lang: spec.CSS, Expr: &spec.Lit{Value: "p["}}})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Column != 3 {
		t.Errorf("bad scope: %v", err)
	}
	if _, err := p.Evaluate(&spec.ChangeType{Kind: spec.Value}); err == nil {
		t.Error("value without scope accepted")
	}
	if _, err := p.Evaluate(&spec.ChangeType{Kind: spec.Regex, Args: lits("(")}); err == nil {
		t.Error("invalid regular expression accepted")
	}
	if _, err := p.Evaluate(nil); err == nil {
		t.Error("nil expression accepted")
	}
	if _, err := NewPair(nil, nil, nil, nil).Evaluate(&spec.ChangeType{Kind: spec.AnyChange}); err == nil {
		t.Error("missing documents accepted")
	}
}

// TestScopes covers scopes selecting text nodes and several subtrees, and
// a scope that matches nothing in one version.
func TestScopes(t *testing.T) {
	old := `<html><body><div class="a"><p>one</p></div><div class="a"><p>two</p></div><p>three</p></body></html>`
	new := `<html><body><div class="a"><p>one</p></div><div class="a"><p>2</p></div><p>3</p></body></html>`
	r := evalClause(t, old, new, `all words In css "div.a"`)
	if got := briefs(r.Changes); !slices.Equal(got, []string{"update(two->2,2,2)"}) {
		t.Errorf("css scope: %v", got)
	}
	r = evalClause(t, old, new, `any change In xpath "//body/p/text()"`)
	if got := briefs(r.Changes); !slices.Equal(got, []string{"update(three->3,1,1)"}) {
		t.Errorf("xpath text scope: %v", got)
	}
	r = evalClause(t, old, strings.ReplaceAll(new, `class="a"`, `class="b"`), `all words In css "div.a"`)
	if got := briefs(r.Changes); !slices.Equal(got, []string{"delete(one two,1)"}) {
		t.Errorf("scope gone: %v", got)
	}
}

// TestConcurrent evaluates on one Pair from several goroutines (run with
// -race).
func TestConcurrent(t *testing.T) {
	p := NewPair(parseDoc(t, books), parseDoc(t, booksWith("Sorcerer's", "Philosopher's")), nil, nil)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, c := range []string{`any change`, `all words`, `phrase {"the Sorcerer's Stone"}`, `keywords {Harry}`} {
				if _, err := p.Evaluate(monitor(t, c)); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
}
