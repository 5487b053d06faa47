package treediff

import (
	"testing"

	"github.com/vigil-web/vigil/markup"
)

// TestIDAttributes checks the seed's rule "ID attributes mean a mandatory
// or a forbidden match" (thesis §3.2 phase 1, notes E10): elements with the
// same ID value are the same element whatever their content, and elements
// with different ID values are never the same, whatever their content.
func TestIDAttributes(t *testing.T) {
	const dtd = `<!DOCTYPE db [<!ATTLIST person id ID #REQUIRED>]>`
	// The two persons swap their names and phones: by content, a "moved";
	// by identity, each person stayed and its data changed.
	v1 := `<db><person id="one"><name>Ann</name><phone>111</phone></person><person id="two"><name>Bob</name><phone>222</phone></person></db>`
	v2 := `<db><person id="one"><name>Bob</name><phone>222</phone></person><person id="two"><name>Ann</name><phone>111</phone></person></db>`
	tests := []struct {
		name                 string
		oldPrefix, newPrefix string
		opt                  *Options
		byID                 bool // persons keep their identity by id
	}{
		{"DTD ID attribute", dtd, dtd, nil, true},
		{"DTD of the new version only", "", dtd, nil, true},
		{"DTD of the old version only", dtd, "", nil, true},
		{"user key attribute", "", "", &Options{KeyAttrs: []string{"id"}}, true},
		{"DTD ignored", dtd, dtd, &Options{IgnoreDTD: true}, false},
		{"no keys", "", "", nil, false},
	}
	for _, tt := range tests {
		for _, alg := range []Algorithm{Vigil, XyDiff} {
			t.Run(tt.name+"/"+string(alg), func(t *testing.T) {
				a, err := markup.ParseXMLBytes([]byte(tt.oldPrefix+v1), nil)
				if err != nil {
					t.Fatal(err)
				}
				b, err := markup.ParseXMLBytes([]byte(tt.newPrefix+v2), nil)
				if err != nil {
					t.Fatal(err)
				}
				opt := tt.opt
				if opt == nil {
					opt = &Options{}
				}
				opt.Algorithm = alg
				d, err := Diff(a, b, opt)
				if err != nil {
					t.Fatal(err)
				}
				checkApplies(t, a, b, d)
				sameID := a.Root.Children[0].XID == b.Root.Children[0].XID && a.Root.Children[1].XID == b.Root.Children[1].XID
				if sameID != tt.byID {
					t.Errorf("person with id=one keeps its XID: %v, want %v\n%s", sameID, tt.byID, ops(d))
				}
				if tt.byID {
					// Identity by ID: the persons never move.
					for i := range d.Ops {
						if op := d.Ops[i]; op.Move && (op.Root() == a.Root.Children[0].XID || op.Root() == a.Root.Children[1].XID) {
							t.Errorf("a person moved although its ID fixes it: %s", op.String())
						}
					}
				}
			})
		}
	}
}
