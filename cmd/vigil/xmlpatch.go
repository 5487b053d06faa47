package main

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"strings"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/xmlpatch"
)

// isXMLPatch reports whether a file given to patch is an RFC 5261 XML
// patch rather than a delta: XML whose document element is neither
// XyDelta's unit_delta nor its t, the delta a unit_delta holds (with or
// without the xy: prefix). A t alone, taken out of its unit_delta, is a
// delta the delta decoder refuses, saying why, rather than a patch whose
// operations <i> and <d> are unknown. JSON, and a file that is not XML up
// to its first element, are left to the delta decoders, which say what is
// wrong with them.
func isXMLPatch(b []byte) bool {
	root, ok := rootElement(b)
	return ok && root != "unit_delta" && root != "t"
}

// rootElement returns the local name of the document element of the XML
// b, and false when b is empty, JSON, or not XML up to its first element.
func rootElement(b []byte) (string, bool) {
	b = bytes.TrimSpace(bytes.TrimPrefix(b, utf8BOM))
	if len(b) == 0 || startsJSON(b) {
		return "", false
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		t, err := d.RawToken()
		if err != nil {
			return "", false
		}
		switch t := t.(type) {
		case xml.StartElement:
			return t.Name.Local, true
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				// Text first (a summary of vigil diff, whose
				// quoted "<row>" was taken for the patch's root).
				return "", false
			}
		}
	}
}

// normalizedPatchPI is the processing instruction that vigil diff writes
// before an RFC 5261 patch of documents read with white space normalised
// (--whitespace normalize): its selectors count the texts of that reading
// (text()[2] is the second text left), not those an XML tool reads, and
// vigil patch reads the document so. Other tools pass it over.
const normalizedPatchPI = "<?vigil-whitespace normalize?>"

// patchNormalized reports whether the XML patch b says, before its root
// element, that it addresses documents read with white space normalised
// (normalizedPatchPI).
func patchNormalized(b []byte) bool {
	d := xml.NewDecoder(bytes.NewReader(bytes.TrimPrefix(b, utf8BOM)))
	for {
		t, err := d.RawToken()
		if err != nil {
			return false
		}
		switch t := t.(type) {
		case xml.ProcInst:
			if t.Target == "vigil-whitespace" && strings.TrimSpace(string(t.Inst)) == "normalize" {
				return true
			}
		case xml.StartElement:
			return false
		}
	}
}

// keepWhitespaceUnlessSet makes df keep white space unless --whitespace
// was given, and reports whether it changed it: an RFC 5261 patch
// addresses a document as any XML tool reads it, white space included
// (text()[k] counts it, ws="after" removes it), and a patch diff writes
// is applied to the files as they are.
func keepWhitespaceUnlessSet(fs *flag.FlagSet, df *docFlags) bool {
	if flagSet(fs, "whitespace") || df.whitespace == "keep" {
		return false
	}
	df.whitespace = "keep"
	return true
}

// parseDocument parses the bytes of the document read from name again,
// with df's options.
func parseDocument(name string, b []byte, df *docFlags) (*tree.Document, markup.Format, error) {
	opt, err := df.options()
	if err != nil {
		return nil, 0, err
	}
	doc, format, err := markup.ParseBytes(b, opt)
	if err != nil {
		return nil, 0, parseError(name, err)
	}
	return doc, format, nil
}

// patchRFC5261 applies an RFC 5261 patch (raw, read from name) to doc and
// writes the result in format, as patch does a delta.
// docName and docBytes are DOC's, for the hint of swapped arguments.
func patchRFC5261(env *environment, name string, raw []byte, doc *tree.Document, docName string, docBytes []byte, format markup.Format, df *docFlags, reverse bool) (int, error) {
	if reverse {
		return exitError, fmt.Errorf("%s: an RFC 5261 XML patch cannot be undone (it holds no old values): --reverse undoes XyDelta and JSON deltas", inputName(name))
	}
	p, err := xmlpatch.Decode(bytes.NewReader(raw))
	if err != nil {
		err = fmt.Errorf("%s: %w", inputName(name), err)
		// The likeliest slip: the arguments swapped.
		if _, _, notDelta := decodeDeltas(docBytes); notDelta == nil {
			return exitError, fmt.Errorf("%w (%s is a delta: the arguments are DOC DELTA, in that order)", err, inputName(docName))
		}
		// Any root element reads as a patch; only one with operations
		// says DOC is a patch (a document <r/> would read as an empty one).
		if swapped, notPatch := xmlpatch.Decode(bytes.NewReader(docBytes)); notPatch == nil && len(swapped.Ops) > 0 {
			return exitError, fmt.Errorf("%w (%s is an XML patch: the arguments are DOC PATCH, in that order)", err, inputName(docName))
		}
		return exitError, err
	}
	if err := xmlpatch.Apply(doc, p); err != nil {
		return exitError, fmt.Errorf("%s: %w", inputName(name), err)
	}
	f, _ := tree.Flatten(doc.Root)
	out, err := writePatched(env, doc, format, df, tree.FingerprintOf(f), "the version the patch leads to", "")
	if err == nil {
		_, err = env.stdout.Write(out)
	}
	if err != nil {
		return exitError, err
	}
	return exitOK, nil
}
