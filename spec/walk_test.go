package spec

import "testing"

// TestEval follows the note's §7.6 truth table for
// "all words AND NOT phrase {"Lord of the Rings"}".
func TestEval(t *testing.T) {
	x := mustParse(t, `Create Sentinel s Using http://a.example Monitor all words AND NOT phrase {"Lord of the Rings"}`).Sentinels[0].Monitor.X
	cts := ChangeTypes(x)
	if len(cts) != 2 || cts[0].Kind != Words || cts[1].Kind != Phrase {
		t.Fatalf("ChangeTypes = %v", cts)
	}
	tests := []struct {
		words, phrase, want bool
	}{
		{true, false, true},   // words changed, phrase unchanged: notify
		{true, true, false},   // the phrase changed too: no
		{false, false, false}, // nothing changed: no
	}
	for _, tt := range tests {
		got := Eval(x, func(c *ChangeType) bool {
			if c.Kind == Words {
				return tt.words
			}
			return tt.phrase
		})
		if got != tt.want {
			t.Errorf("words %v phrase %v: %v, want %v", tt.words, tt.phrase, got, tt.want)
		}
	}
	or := mustParse(t, "Create Sentinel s Using http://a.example Monitor all links OR all images").Sentinels[0].Monitor.X
	if !Eval(or, func(c *ChangeType) bool { return c.Kind == Images }) || Eval(or, func(*ChangeType) bool { return false }) {
		t.Error("OR")
	}
	n := 0
	Inspect(or, func(Expr) bool { n++; return false })
	if n != 1 {
		t.Errorf("Inspect visited %d nodes after false, want 1", n)
	}
}

func TestTargets(t *testing.T) {
	tg := mustParse(t, "Create Sentinel s Using http://a.example OR (s1 AND b.example/x)").Sentinels[0].Target
	leaves := Targets(tg)
	if len(leaves) != 3 || leaves[1].(*SentinelTarget).Name.Name != "s1" || leaves[2].(*URLTarget).URL != "b.example/x" {
		t.Errorf("Targets = %v", leaves)
	}
}
