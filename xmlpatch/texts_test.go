package xmlpatch

import (
	"github.com/vigil-web/vigil/delta"
	"runtime"
	"strings"
	"testing"
)

// TestApplyJoinsTextsLinearly checks that the texts Apply joins are
// joined in memory linear in their length, not copied whole at each
// join: a patch that adds text beside a long text again and again, that
// removes the elements between many texts one by one, or whose content
// holds many texts split by empty CDATA sections, allocated the square of
// the text's length (seconds of copying for a patch of a few kilobytes).
func TestApplyJoinsTextsLinearly(t *testing.T) {
	const removes, pieces = 5000, 20000
	cases := []struct {
		name, doc, patch string
		want             string // the root's text after the patch
	}{{
		"adds beside a long text",
		"<r>" + strings.Repeat("a", 1<<20) + "</r>",
		"<diff>" + strings.Repeat(`<add sel="r">x</add>`, 500) + "</diff>",
		strings.Repeat("a", 1<<20) + strings.Repeat("x", 500),
	}, {
		"removes between texts",
		"<r>" + strings.Repeat(strings.Repeat("t", 100)+"<b/>", removes) + "</r>",
		"<diff>" + strings.Repeat(`<remove sel="r/b[1]"/>`, removes) + "</diff>",
		strings.Repeat("t", 100*removes),
	}, {
		"content of texts split by empty CDATA sections",
		"<r/>",
		`<diff><add sel="r">` + strings.Repeat("abcd<![CDATA[]]>", pieces) + "</add></diff>",
		strings.Repeat("abcd", pieces),
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := parseXML(t, c.doc)
			p, err := Decode(strings.NewReader(c.patch))
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err = Apply(doc, p)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(clip(err.Error(), 200))
			}
			if len(doc.Root.Children) != 1 || doc.Root.Children[0].Value != c.want {
				t.Fatalf("the root holds %d children, not the one text joined", len(doc.Root.Children))
			}
			// The input is at most 1 MB; a join that copies the whole text
			// each time allocates hundreds of megabytes.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
				t.Errorf("Apply allocated %d MB", alloc>>20)
			}
		})
	}
}

// TestExportTextsInXPathModel checks Export on deltas whose target holds
// what XPath's data model has not, an empty text or two texts side by
// side (delta.Apply keeps them as the delta says): the patch gives
// delta.Apply's document as it is written and read, and the selectors
// after count the texts as Apply does, which removes an empty text and
// joins adjacent ones. The document's XIDs, in post-order, are in each
// case's comment.
func TestExportTextsInXPathModel(t *testing.T) {
	cases := []struct {
		name, doc, delta string
		patch            string // the patch as written, where it matters
	}{{
		// x 1, a 2, A 3, 0 4, doc 5 (FuzzExportDelta's find).
		name:  "text updated to empty",
		doc:   `<doc><a>x</a><A/>0</doc>`,
		delta: `<d par="2" pos="1" xm="(1)" update="yes">x</d><i par="2" pos="1" xm="(1)" update="yes"><![CDATA[]]></i>`,
		patch: "<diff>\n<remove sel=\"/doc/a/text()[1]\"/>\n</diff>\n",
	}, {
		// x 1, A 2, 0 3, doc 4.
		name:  "text updated to empty before another text updated",
		doc:   `<doc>x<A/>0</doc>`,
		delta: `<d par="4" pos="1" xm="(1)" update="yes">x</d><i par="4" pos="1" xm="(1)" update="yes"><![CDATA[]]></i><d par="4" pos="3" xm="(3)" update="yes">0</d><i par="4" pos="3" xm="(3)" update="yes">1</i>`,
	}, {
		name:  "empty text inserted",
		doc:   `<doc><a>x</a><A/>0</doc>`,
		delta: `<i par="3" pos="1" xm="(6)"><![CDATA[]]></i>`,
		patch: "<diff>\n</diff>\n",
	}, {
		name:  "empty text inserted beside a text",
		doc:   `<doc><a>x</a><A/>0</doc>`,
		delta: `<i par="2" pos="2" xm="(6)"><![CDATA[]]></i>`,
		patch: "<diff>\n</diff>\n",
	}, {
		name:  "text inserted beside a text",
		doc:   `<doc><a>x</a><A/>0</doc>`,
		delta: `<i par="2" pos="2" xm="(6)">y</i>`,
	}, {
		name:  "text inserted beside a text before another text updated",
		doc:   `<doc>x<A/>0</doc>`,
		delta: `<i par="4" pos="2" xm="(5)">y</i><d par="4" pos="3" xm="(3)" update="yes">0</d><i par="4" pos="3" xm="(3)" update="yes">1</i>`,
	}, {
		name:  "text inserted beside a text updated",
		doc:   `<doc>x<A/>0</doc>`,
		delta: `<i par="4" pos="2" xm="(5)">y</i><d par="4" pos="1" xm="(1)" update="yes">x</d><i par="4" pos="1" xm="(1)" update="yes">z</i>`,
	}, {
		name:  "text updated to empty beside a text inserted",
		doc:   `<doc>x<A/>0</doc>`,
		delta: `<i par="4" pos="2" xm="(5)">y</i><d par="4" pos="1" xm="(1)" update="yes">x</d><i par="4" pos="1" xm="(1)" update="yes"><![CDATA[]]></i>`,
	}, {
		name:  "element holding texts side by side inserted",
		doc:   `<doc>x<A/>0</doc>`,
		delta: `<i par="4" pos="2" xm="(5-8)"><e>a<![CDATA[]]>b<![CDATA[]]><![CDATA[]]></e></i><d par="4" pos="3" xm="(3)" update="yes">0</d><i par="4" pos="4" xm="(3)" update="yes">1</i>`,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			old := parseXML(t, c.doc)
			old.AssignXIDs()
			ds, err := delta.DecodeXML(strings.NewReader("<unit_delta><t>" + c.delta + "</t></unit_delta>"))
			if err != nil {
				t.Fatal(err)
			}
			if err := agree(t, old, ds[0]); err != nil {
				t.Fatalf("export: %v", err)
			}
			if c.patch != "" {
				p, err := Export(old, ds[0])
				if err != nil {
					t.Fatal(err)
				}
				if got := encode(t, p); got != c.patch {
					t.Errorf("patch:\n%s\nwant:\n%s", got, c.patch)
				}
			}
		})
	}
}
