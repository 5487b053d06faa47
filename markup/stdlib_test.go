package markup_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// attrSpace turns tabs, newlines and carriage returns into spaces.
var attrSpace = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")

// lineEnds normalises line ends as XML requires everywhere; encoding/xml
// does it in text but not in comments and processing instructions.
var lineEnds = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// parseStdlibKeep builds from encoding/xml's tokens the tree ParseXML makes
// under the Keep policy: adjacent character data merged, comments and
// processing instructions inside the root kept, and attribute values with
// tabs and newlines turned into spaces, as XML's attribute-value
// normalisation requires (encoding/xml does not do it).
func parseStdlibKeep(data []byte) (*tree.Document, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	doc := &tree.Document{}
	var stack []*tree.Node
	qname := func(n xml.Name) string {
		if n.Space == "" {
			return n.Local
		}
		return n.Space + ":" + n.Local
	}
	add := func(n *tree.Node) {
		if len(stack) > 0 {
			stack[len(stack)-1].AppendChild(n)
		}
	}
	for {
		tok, err := dec.RawToken()
		if err == io.EOF {
			return doc, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := doc.NewElement(qname(t.Name))
			for _, a := range t.Attr {
				v := attrSpace.Replace(a.Value)
				n.Attrs = append(n.Attrs, tree.Attr{Name: qname(a.Name), Value: v})
			}
			if len(stack) == 0 {
				doc.Root = n
			}
			add(n)
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			p := stack[len(stack)-1]
			if k := len(p.Children); k > 0 && p.Children[k-1].Kind == tree.Text {
				p.Children[k-1].Value += string(t)
			} else if len(t) > 0 {
				add(doc.NewText(string(t)))
			}
		case xml.Comment:
			add(doc.NewNode(tree.Comment, "", lineEnds.Replace(string(t))))
		case xml.ProcInst:
			add(doc.NewNode(tree.ProcInst, t.Target, strings.TrimLeft(lineEnds.Replace(string(t.Inst)), " \t\n")))
		}
	}
}

// TestAgreesWithStdlib parses the XML of the corpus with ParseXML and with
// encoding/xml and compares the trees: a differential test of the
// hand-written scanner.
func TestAgreesWithStdlib(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*", "*.xml"))
	if shared, _ := filepath.Glob(filepath.Join(sharedCorpus, "*", "*.xml")); len(shared) > 0 && !testing.Short() {
		paths = append(paths, shared...)
	}
	inputs := map[string][]byte{"generated": genXML(200<<10, 3)}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs[p] = data
	}
	for _, s := range xmlSeeds {
		inputs["seed "+s] = []byte(s)
	}
	for name, data := range inputs {
		want, werr := parseStdlibKeep(data)
		got, gerr := markup.ParseXMLBytes(data, keep)
		if werr != nil || want.Root == nil || bytes.Contains(data, []byte("<!DOCTYPE")) || bytes.Contains(data, []byte("encoding=\"ISO")) {
			continue // encoding/xml refuses it, or cannot expand its entities or charset
		}
		if gerr != nil && strings.HasPrefix(name, "seed ") {
			continue // RawToken does not check tag matching, duplicates or prefixes
		}
		if gerr != nil {
			t.Errorf("%s: encoding/xml parses it, ParseXML: %v", name, gerr)
			continue
		}
		if d := tree.Diff(want.Root, got.Root, tree.Content); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}
