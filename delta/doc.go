// Package delta is XyDelta: a change between two versions of a document as a
// set of operations on persistent node identifiers (XIDs), which can be
// stored, validated, applied in both directions, inverted and composed.
//
// It implements chapter 4 of G. Cobéna, "Change management of
// semi-structured data on the Web", PhD thesis, École Polytechnique, 2003
// (Cobéna, Abiteboul, Marian, "Detecting changes in XML documents", ICDE 2002,
// and Marian, Abiteboul, Cobéna, Mignet, "Change-centric management of
// versions in an XML warehouse", VLDB 2001), and the delta construction step
// (phase 5) of chapter 3, as Build.
//
// # Operations
//
// A delta holds deletes and inserts of subtrees, addressed by the XID of the
// parent and a 1-based position (in the old version for a delete, in the new
// version for an insert), each carrying the XID-map of its subtree and the
// subtree itself; moves and text updates as tagged delete/insert pairs; and
// attribute inserts, deletes and updates addressed by the element's XID and
// the attribute's name. Each operation carries what is needed to undo it, so
// the delta is "completed" in the seed's sense.
//
// # Phases, in the seed's order
//
//   - Build (thesis §3.5, phase 5 of XyDiff): the delta between two
//     versions whose nodes already carry XIDs.
//   - Delta.Validate and Validate (Def. 4.2.1, 4.2.2): a delta well-formed on
//     its own, and fitting a document: parent exists, position in range,
//     deleted subtree identical XIDs included, inserted XIDs unused.
//   - Apply (§4.4, and the reference tool): deletes first, with moved
//     subtrees parked by XID, then inserts parent by parent in ascending
//     position, then renames and attribute operations. It works on a clone,
//     so a refused delta leaves the document as it was, and it is linear in
//     the size of the document plus the delta.
//   - Invert (§4.4): deletes and inserts swap, and so do old and new values.
//   - Canonicalize and Equal (Def. 4.2.12, figure 4.2 COMPARE): a canonical
//     XyScript order computed from the operations alone, so that deltas with
//     the same operations compare equal.
//   - Compose (Def. 4.2.5, Cor. 4.2.15, §4.3 "cutting" moves): the
//     aggregation of two consecutive deltas without the documents;
//     ComposeWith does it through the documents. ComposeAll aggregates a
//     chain in a balanced tree of Compose calls, after following every
//     name, value and attribute through the chain to refuse a delta that
//     does not follow the ones before (a Vigil addition: the seed composes
//     pairs). ApplyAll applies a chain to one clone, keeping its index of
//     XIDs from step to step.
//   - EncodeXML, DecodeXML, EncodeJSON, DecodeJSON, DecodeJSONAll: the
//     formats below.
//
// # Composition
//
// The seed aggregates by concatenating the two XyScripts and bubble-sorting
// them back into a XyScript with its swap lemmas (4.2.6-4.2.11), which needs
// ancestor paths that the deltas do not carry (header trees the seed never
// specifies, and full XID-maps for moves that the XyDiff tool does not
// write). Compose reaches the same result another way: what the deltas say
// about the middle version (the subtrees the first inserts and the second
// deletes, and the parent and position of every operation) is a partial
// document, exact where known, with stand-ins for the siblings no operation
// names and opaque elements for nodes known only by their XID. Undoing the
// first delta on it and applying the second give partial first and last
// versions, exact at every position the composed delta needs, and Build
// between the two, with the stand-ins pinned in place, gives the composed
// delta. Each swap lemma shows up as a case of that construction (an insert
// followed by a delete of the same node leaves no trace; a delete inside an
// inserted subtree shrinks the insert's content; a delete of an ancestor
// takes the V0 values of what the first delta changed inside it;
// positions are re-mapped by the other delta's operations under the same
// parent), and attribute operations and renames of opaque elements are
// combined per element and name. Compose refuses (ErrNotComposable) deltas
// that do not follow each other, and one case that Build's conventions
// cannot state: an XID whose node changes kind (a text deleted and an
// element inserted with the same XID, which no diff produces). On the
// generated chains of the tests and on every history of the shared corpus
// it composes every pair; ComposeWith is the path through the documents.
//
// The namespace declarations in scope at a content's place (the default
// namespace and the prefixes its XML form declares, see Formats) are
// taken from the delta whose content held it; when that is the delta not
// written at the content's version, the other delta's changes of xmlns
// and xmlns:p attributes are carried over: the default namespace that
// the other delta's own contents show below the content's parent, the new
// value of the parent's declaration, the same binding where no
// declaration that may be the nearest one changed. A declaration changed, added or
// taken off on an element that may be an ancestor of the place (the
// deltas do not say which elements are, only, by the post-order of their
// XID maps, that an element before the place is none) makes Compose refuse
// (ErrNeedsDocuments, "use ComposeWith"). A move says nothing about the
// declarations at either end: a content that one delta inserts or deletes
// and the other moves to another parent out of a declared default
// namespace makes Compose refuse the same way when the default namespace
// at its place is asked and the other delta's contents do not show it
// below the new parent (an element inserted in the Atom part of a page
// and moved into its SVG part was read as Atom); a content that left no
// default namespace (an HTML page's, whose <svg> parts declare theirs), a
// prefix's binding, and the default namespace of a content below an
// element moved, keep the binding of the middle version.
// ComposeWith, built from the documents, is exact in every case.
//
// # Formats
//
// XyDelta XML is what the XyDiff tool writes (EncodeXML, DecodeXML):
//
//	<unit_delta>
//	<t from="v1.xml" to="v2.xml" fromXidMap="(1-15|16)" toXidMap="(1-11;16-17;14-15|18)">
//	<au xid="2" a="b" ov="2" nv="3"/>
//	<rn xid="2" ov="p" nv="para"/>
//	<d par="14" pos="3" xm="(12-13)"><status>Not Available</status></d>
//	<d par="14" pos="1" xm="(13)" move="yes"/>
//	<d par="12" pos="1" xm="(11)" update="yes">$799</d>
//	<i par="12" pos="1" xm="(11)" update="yes">$699</i>
//	<i par="14" pos="3" xm="(16-17)"><price>$299</price></i>
//	</t>
//	</unit_delta>
//
// One <t> per delta: a multi-step document holds a chain of deltas. A <t>
// may also carry fromFingerprint and toFingerprint (16 hexadecimal digits,
// a Vigil extension): the tree.Fingerprint of each version, which vigil
// diff writes and patch and compose check, so that a delta is not applied
// to a document of the same size that it was not computed from. It is of
// the root element's tree alone; what stands outside the root is told by
// the delta's outside change, which Follows compares too. The
// operations are d and i (par, pos, xm, and move="yes" or update="yes"),
// whose content is the subtree written compactly as XML (an element, a
// comment <!--..-->, a processing instruction <?target data?>, or, for a
// text, the text itself); ad and ai (xid, a, v); au (xid, a, ov, nv); and rn
// (xid, ov, nv), Vigil's rename. Element names may carry the xy: prefix of
// the XyDiff fork (xy:unit_delta, xy:t, xy:d, ...). Content text is kept
// byte for byte: carriage returns are written as &#xD;, tabs and newlines in
// attribute values as character references, and two adjacent text nodes
// (or an empty one) are separated by an empty CDATA section
// (<![CDATA[]]>), which any XML parser reads as nothing and which the
// decoder takes as the end of a text node. White space around an element,
// comment or PI at the top of a d or i is layout and ignored. What XML
// cannot hold as such, and an HTML parser keeps, has an escape form (a
// Vigil extension): a comment holding "--" or ending with "-" is written
// <xy:comment>text</xy:comment>; a processing instruction whose data starts
// with white space or holds "?>" is <xy:pi target="t">data</xy:pi>; an
// element whose name is not a plain XML name (such as "a<b") is
// <xy:element name="a&lt;b">...</xy:element>; an attribute whose name is
// not (such as "<" or "@click") is an <xy:attr name="@click">value</xy:attr>
// child of its element, before the others; so are an element named with
// the xmlns prefix and the namespace declarations the namespace rules
// forbid (xmlns:p="", xmlns:xmlns, xml bound elsewhere), which an HTML
// parser keeps. Each of these xy: elements declares its namespace
// (xmlns:xy="urn:vigil:xydelta"), and a <t> declares the namespace
// prefixes its contents use (Delta.Namespaces:
// xmlns:dc="http://purl.org/dc/elements/1.1/"), a d or i those its place
// binds otherwise (Op.Namespaces: a prefix bound to two URIs in two parts
// of a document), so that the delta is namespace-well-formed for other XML
// tools (the reference tool's deltas are not). A prefix that a content
// uses and its document never declared (<fb:like> on an HTML page) is
// bound to urn:vigil:undeclared:fb, which the decoder leaves out of the
// bindings. (One case is left: the children of an xy:element that use a
// prefix xy of their document's read, in a namespace-aware tool, as in
// Vigil's namespace.) The default namespace (xmlns="...") at a content's
// place, which in Vigil's tree is an attribute of the ancestor that
// declares it, is declared on the content's root, and the operation says
// that this declaration is not the root's own attribute (addedXmlns="yes",
// a Vigil extension; Op.Namespaces[""]):
//
//	<i par="30" pos="2" xm="(10-12)" addedXmlns="yes"><entry
//	  xmlns="http://www.w3.org/2005/Atom"><title>New</title></entry></i>
//
// so that a namespace-aware reader finds each element of a content in the
// namespace it has in its document, while the delta's own elements stay
// in no namespace; the decoder takes that declaration off the root. The
// marker is an attribute of the operation in no namespace, as par and pos
// are, not an xy: one: declaring xy on the operation or on the root would
// rebind a prefix xy that the content may use. A root's own xmlns
// (xmlns="" too) is written and read back as its attribute, without the
// marker, and so are those of the elements inside it. An element content
// whose place is in no namespace, as on an HTML page without xmlns
// attributes, is written as it is; a text, a comment, a move (which
// carries no content), an attribute operation and a rename have no
// namespace to declare (the decoder refuses the marker on the last three,
// and on a d or i whose content's root has no xmlns attribute). The
// reference tool's
// <renameRoot from=".." to=".."/> is read as an rn of the root (whose XID is
// the last of the <t>'s XID-map). The fork's character-level <u> is not
// read: it cannot be applied without the old text. A change outside the
// root element (Delta.Outside, a Vigil extension) follows the operations:
//
//	<outside>
//	<old doctype="html"><prolog><!-- generated 2026-11-20 --></prolog></old>
//	<new doctype="html"><prolog><!-- generated 2026-11-21 --></prolog></new>
//	</outside>
//
// with one prolog (before the root) or epilog (after it) element per
// comment or processing instruction, in order, no doctype attribute for
// no DOCTYPE, and doctype-after="N" when the DOCTYPE follows the first N
// prolog nodes (absent: it comes first).
//
// The JSON form (EncodeJSON, DecodeJSON) holds the same fields
// (fromFingerprint and toFingerprint too, when known, and the namespaces,
// "namespaces":{"dc":"http://purl.org/dc/elements/1.1/"}, of the delta and
// of a d or i, when there are any; an operation's default namespace, the
// XML form's addedXmlns="yes", is bound to the empty prefix,
// "namespaces":{"":"http://www.w3.org/2005/Atom"}, only on a d or i whose
// content is an element without an xmlns attribute of its own). The
// namespaces fields are Vigil's since 2026-11-22 (commits c225250 and
// d688beb), the empty prefix since 2026-11-29 (commit b85cb3a, with
// addedXmlns): a build from before refuses such a delta ("namespace prefix
// "" is not an XML name without a colon"), and reads the XML form's
// declaration as the content root's own xmlns attribute, which patches
// a document into another tree than the version the delta leads to (vigil
// patch says so, by the fingerprints vigil diff writes). Deltas of
// documents without a default namespace (an HTML page without xmlns
// attributes) are written as before. An error in
// a namespaces field names it and its operation (line 1, column 86:
// ops[0].namespaces: operation 1 (i par=1 pos=1 xm=(2)): the default
// namespace is bound to no URI; ops[0].namespaces[""]: given twice):
//
//	{"from":"v1.xml","to":"v2.xml","fromXidMap":"(1-15|16)","toXidMap":"(1-11;16-17;14-15|18)","ops":[
//	{"op":"d","par":14,"pos":1,"xm":"(13)","move":true},
//	{"op":"i","par":14,"pos":3,"xm":"(16-17)",
//	  "content":{"kind":"element","name":"price","attrs":[["currency","USD"]],
//	  "children":[{"kind":"text","value":"$299"}]}},
//	{"op":"au","xid":2,"a":"b","ov":"2","nv":"3"},
//	{"op":"ad","xid":2,"a":"z","v":"gone"}, {"op":"ai","xid":2,"a":"c","v":"4"},
//	{"op":"rn","xid":2,"ov":"p","nv":"para"}]}
//
// A content node is {"kind":"element"|"text"|"comment"|"pi","name":..,
// "value":..,"attrs":[[name,value],...],"children":[...]}; its XIDs are
// those of xm, in post-order, as in XML. A change outside the root element
// is "outside":{"old":{"doctype":"html","prolog":[node,...],"epilog":[...]},
// "new":{...}}, with "doctypeAfter":N as doctype-after. Unknown fields,
// and fields given twice, are errors, and errors name the field
// (ops[3].xm: ...). DecodeJSONAll reads several deltas written one after
// the other.
//
// Both decoders check the delta with Delta.Validate and bound what hostile
// input can make them allocate: MaxOps operations, tree.MaxXIDMapLen XIDs
// in all, an operation's XID-map no longer than its subtree (counted before
// it is expanded), MaxContentDepth levels of content. A version's XID-map
// (fromXidMap, toXidMap) is never expanded: it is held as its runs of
// consecutive XIDs (tree.XIDRanges), a few for most documents, so that the
// delta of one update to a document of a million nodes decodes, composes
// and encodes without listing them, and a map of a few bytes that claims
// sixty million XIDs costs a few bytes. Apply reads it run by run as it
// walks the document. A reader that knows the document (vigil patch)
// gives DecodeXMLWithin or DecodeJSONAllWithin the most nodes a version
// can have (Limits), and a longer map is refused at once with a
// *MapSizeError, which names the sizes. Every traversal is
// iterative, the JSON decoder's too: it reads token by token, since
// encoding/json's Unmarshal stops at 10 000 levels of JSON. A decoded
// delta keeps where each operation starts in its file (its < in XML, its
// { in JSON; 8 bytes an operation), and the errors of Validate and Apply
// name it before the operation, as a decoder's errors do: "line 12,
// column 5: operation 3 (i par=17 ...): parent XID 17 not in document".
// Apply's error for a change outside the root element that does not fit
// names where it starts too (its <outside>, its "outside" key). The
// operations of Invert's and Rebase's results keep the places of those
// they come from; a delta made in memory, a composition too, has none.
//
// # Differences from the seed
//
//   - Attribute updates carry the old value as well as the new one (the
//     seed's attr-modify has only the new value, which cannot be inverted);
//     this is what the XyDiff tool writes (au with ov and nv).
//   - A text update keeps the text node's XID, as figure 3.5 of the thesis
//     does; the XyDiff tool allocates a new one. Keeping it lets a user's
//     question ("did this text change?") follow the same node across
//     versions. Deltas that give the new text a new XID, as the XyDiff
//     tool writes them, are read and applied too.
//   - An update is emitted for any text, comment or processing instruction
//     whose value changed and that stayed at its place under the same parent,
//     not only for the sole text child of an element (the seed's rule, which
//     turns every change in mixed content into a delete plus an insert). A
//     processing instruction whose target changed is updated too: the
//     update carries the whole node.
//   - The seed's deltas cover the root element and everything in it. What
//     stands outside the root element (the DOCTYPE, and comments and
//     processing instructions before or after it: Document's Prolog,
//     Doctype and Epilog) changes too (a licence comment, a generator's
//     date), and a delta that left it out would say "no change" of a file
//     that changed and patch a document into one that is not the version
//     it claims. Delta.Outside gives it whole, before and after, when it
//     changed: Apply checks the before and sets the after, Invert swaps
//     them, Compose chains them. The XML declaration is left out (writers
//     rewrite it), in either form a parser leaves it: the processing
//     instruction of an XML parser (tree.IsXMLDeclaration) and, in a
//     document an HTML parser read (tree.Document.HTML), the comment it
//     makes of one wherever it stands before the root
//     (tree.IsXMLDeclarationComment), so that XHTML read as XML in one
//     version and as HTML in the next is no change. Read as XML,
//     <!--?xml version="1.0"?--> is a comment like any other, which a
//     delta carries, but between a version read as HTML and one read as
//     XML (the first as a browser serialises it), where it is the
//     declaration in both. Apply keeps the document's declarations where they
//     stand, beside the nodes around them that the change leaves; a
//     declaration that moved, came or went is not rebuilt. A delta whose
//     prolog holds the processing instruction is malformed (Validate):
//     what no comparison sees, Apply of the inverse could not take away
//     again. So is one whose DOCTYPE holds a > that would end it before
//     its text does, outside its quoted identifiers and internal subset
//     (xmltext.CheckDoctype), which no parser gives and which a writer
//     would turn into markup of the delta's (a script) before the root,
//     where the fingerprints do not look; a > in a quoted identifier, as
//     XML gives it ("a>b.dtd"), is taken (markup.WriteHTML cuts such a
//     DOCTYPE to its name). For the same
//     reason as the declaration, Apply refuses (ErrConflict) a delta
//     whose prolog holds the comment when the document was read as HTML.
//     A delta written when the comment was left out of XML documents too
//     applies to them as it did then, and follows and composes with one
//     written since as Apply takes them in turn; Compose refuses
//     (ErrNeedsDocuments) such a first delta whose source could have held
//     the comment in more than one place.
//   - A move carries only the XID of the moved subtree's root, as the XyDiff
//     tool writes it; the seed's full XID-map of the moved data cannot be
//     stated once the moved subtree itself changes.
//   - Attribute updates and renames are written au and rn with both values;
//     the thesis's attr-modify (new value only) is not read.
//   - Rename (rn) changes an element's name in place. The seed has no such
//     operation; the XyDiff tool has renameRoot for the root only. Vigil
//     uses it for the root and wherever a matched element changed its name.
//   - Apply detaches deleted subtrees lazily (they stay in their parent's
//     child list until every delete is done), so it needs no sort of the
//     deletes and positions always refer to the old version. It also
//     materialises every inserted subtree before attaching any, so an
//     insert never waits for its parent as in the reference tool's
//     round-robin; a move into its own subtree, which that scheduling turns
//     into "no progress", is found by a reachability check instead.
//   - Composition does not bubble-sort a concatenated script with the swap
//     lemmas; it rebuilds the delta from partial versions (see
//     Composition), so it needs neither the header ancestor trees of §4.2
//     nor full XID-maps on moves (§10 items 7, 9 and 11 of the notes).
//   - Canonical order between different parents is by XID, not by document
//     position: the seed's COMPARE needs ancestor paths kept in header trees
//     it never specifies, and the reference tool sorts against the document.
//   - Sibling order is repaired with an exact heaviest increasing
//     subsequence in O(n log n) for any number of children, where the seed
//     cuts long lists into chunks of 50 and the XyDiff tool switches to a
//     greedy pass above 100 children (which reports thousands of false moves
//     on long lists).
package delta
