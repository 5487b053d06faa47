// Package xmlpatch reads, writes, produces and applies XML patches in the
// form of RFC 5261: J. Urpalainen, "An Extensible Markup Language (XML)
// Patch Operations Framework Utilizing XML Path Language (XPath)
// Selectors", RFC 5261, IETF, September 2008.
//
// A patch is an element (<diff>, or one its writer chooses) holding
// <add>, <replace> and <remove> operations, each with a selector (sel)
// in a subset of XPath 1.0 that locates one node, applied in document
// order, each to the result of the one before:
//
//	<diff>
//	<remove sel="/catalog/product[2]/status"/>
//	<add sel="/catalog/product[2]"><price>$299</price></add>
//	<replace sel="/catalog/product[1]/price/text()[1]">$1899</replace>
//	<add sel="/catalog/product[1]" type="@currency">USD</add>
//	</diff>
//
// # Entry points
//
//   - Export turns a Vigil delta (package delta: operations on XIDs,
//     positions of deletes in the old version and of inserts in the new)
//     into a patch whose selectors address nodes as they stand when each
//     operation applies: it computes them on a copy of the old version
//     that it changes operation by operation, and checks the result
//     against delta.Apply.
//   - Apply applies a patch to a tree, atomically, with the error
//     conditions of RFC 5261 section 5 as typed errors (*Error, wrapping a
//     Condition) that name the operation and its selector.
//   - Decode and Encode read and write the patch document; decode errors
//     (*SyntaxError) give the line and column.
//
// # Selectors
//
// Export writes absolute paths of element names, with the position among
// the siblings of the same expanded name where there are several
// (/catalog/product[2]/price), and ends them with text()[k], comment()[k],
// processing-instruction('t')[k] or @name. Apply reads the subset of
// section 8's schema: an optional leading /, id('x'), steps of a name or
// * with predicates [k], [@a='v'], [name='v'] and [.='v'], and a last
// step text(), comment(), processing-instruction('t') (each with an
// optional [k]), @name or namespace::prefix.
//
// Names in selectors follow section 4.2: a prefix is one the patch
// declares (on its document element or the operation), and an unprefixed
// element name is in the patch's default namespace, not in no namespace
// as in XPath 1.0. Export never declares a default namespace: an element
// in a document's default namespace (xmlns="http://www.w3.org/2005/Atom")
// is named with a prefix the patch binds to it and the document does not
// use (ns1:entry), in selectors and in added content alike.
//
// The nodes an <add> or a <replace> holds are read in the patch's scope
// at the operation, as section 4.2.2 and appendix A.18 read them: an
// unprefixed element name is in the default namespace the patch declares
// (on its document element or the operation), and in no namespace when it
// declares none, whatever the default namespace where the nodes go (there
// Apply declares xmlns="" on them); a prefix is one the patch binds.
// Added content keeps those namespaces (section 4.2.2's "namespace
// mangling"): a name keeps its prefix where the document binds that
// prefix to the same namespace; otherwise it takes no prefix if the
// namespace is the document's default there, or another prefix the
// document binds to it, or, failing all, keeps its own and gets a
// declaration. An attribute that <add type="@p:a"> puts on an element
// where p is bound otherwise, or used, takes a prefix nothing there uses
// (p1, p2...), since a declaration on the element binds its whole subtree.
// Export writes content so that Apply gives back the names and
// declarations exactly as they were, and so that any processor that
// reads the patch's names as section 4.2.2 says puts each element in the
// namespace it has in the new version: in a default namespace by the
// prefix bound to it (ns1:entry), in none below a default one by the
// element's own xmlns="" (TestExportNamespaces reads them with
// encoding/xml).
//
// # Limits
//
// Decode accepts at most MaxOps operations and content nested MaxDepth
// deep, and Apply selectors of at most MaxSelector bytes; every walk is
// iterative, so a hostile patch neither exhausts the stack nor makes
// Apply panic. The caller bounds the size of the input.
//
// Apply's work is bounded too. A selector may compare string values at
// each step ([.='x'], [name='x']) and a patch may hold many, so that a
// small patch could cost the square of the document's size: Apply counts
// the nodes its selectors visit and compare (string values, sibling
// indexes, the namespace declarations a name test looks through) and the
// subtrees its operations walk (id(), the in-use check of a removed
// namespace declaration, a free prefix), over the whole patch, and fails
// past Patch.WorkLimit, by default DefaultWorkFactor (64) units a unit
// of input (a node of the document or of the patch's content, a byte of
// a selector) and at least MinWork, with a *WorkLimitError that names the
// operation and leaves the document as it was. An exported patch costs
// about one unit a unit of input. A selector reads each text of the
// document at most once for its string values (they are laid out once
// for the whole selector), not once a step. An edit counts the children
// it shifts (one unit every 128), so that many edits near the start of a
// long list of children cost what they take; the texts an operation joins
// grow in place, in time linear in their length. A run of removes (of
// elements, texts, comments and processing instructions, and replaces of
// a text by an empty value, which remove it, by selectors that use
// neither id() nor [.='v'] or [name='v']) leaves the nodes it
// removes detached in their lists, which the sibling index skips, and
// takes them out at its end, once a parent from its first removed child
// on: removing many children of one parent, from the last, the first or
// the middle of a long list, takes time and work linear in the list,
// where each removal shifted the children after it. Export's removes do
// the same on its working copy, so that exporting the removal of most
// items of a long list is linear too. A replace of an element puts the
// new one in the old one's place in its parent's list, shifting no child,
// so that a run of replaces along a long list (every item renamed) is
// linear, where taking the old element out and putting the new one in
// shifted the children after it twice.
//
// # Departures from the RFC
//
//   - Error conditions: the RFC has no condition for a selector outside
//     its XPath subset; Apply reports it as invalid-attribute-value, the
//     condition of a sel attribute that does not match the schema. An add
//     of an attribute the element has is invalid-patch-directive.
//   - Namespace nodes: namespace::p selects the namespace p in scope at
//     the element, declared there or inherited, as XPath's namespace axis
//     does. Vigil's trees keep names as written and declarations as
//     attributes, as the document holds them, so a replace or a remove of
//     a namespace node acts on its declaration, which must be on the
//     selected element (sections 4.4.3 and 4.5): one the element inherits
//     is invalid-namespace-uri. A replace changes the namespace of every
//     name in the declaration's scope, descendants' included where they
//     do not declare the prefix again, as RFC erratum 3478 has section
//     4.4.3 say (the namespace nodes derived from the declaration change
//     with it); a patch that means to keep a descendant's names in the
//     old namespace adds a declaration there first. A remove of a declaration that a
//     name in its scope still uses (the element's, an attribute's, a
//     descendant's that does not declare the prefix again) is
//     invalid-namespace-prefix, since it would leave that prefix unbound.
//   - Text nodes: Apply keeps to XPath's data model, as the RFC does: the
//     texts an operation puts side by side become one text node (section
//     4.5), a text replaced by nothing goes, and text()[k] counts them so.
//     Only a tree built by hand holds adjacent or empty texts before a
//     patch; Apply counts those as they are. Content in a Patch built in
//     memory may hold them too: the encoder writes an empty CDATA section
//     (<![CDATA[]]>) between two adjacent texts and for an empty one, as
//     the delta package does, and the decoder reads it as that boundary,
//     so that Decode gives back what Encode wrote; Apply joins them, as
//     any XML parser would.
//     A delta may put them in the version it leads to (delta.Apply keeps
//     a text updated to the empty string, an empty text inserted, a text
//     inserted beside another); Export writes the change as XPath's data
//     model has it: a text updated to empty is removed, an empty one
//     inserted is not added, and a text added beside another is one text
//     with it for the selectors after. The patch gives delta.Apply's
//     document as a parser reads it written: an element that holds only
//     an empty text, which delta.Apply's result writes <a></a>, is <a/>.
//   - Undeclared prefixes: an HTML page may use a prefix it never declares
//     (<fb:like>). Such a name is taken to be in the namespace
//     urn:vigil:undeclared: plus the prefix, as in the delta package, and
//     the patch declares the prefix so.
//   - What stands outside the root element: the XPath data model has no
//     DOCTYPE, so a patch cannot change it; Export refuses a delta whose
//     DOCTYPE changes (ErrInexpressible). A selector addresses the
//     comments and processing instructions around it, and Apply adds
//     beside one as a DOM does: next to it, on its side of the DOCTYPE
//     (after a comment that precedes the DOCTYPE is before it; before the
//     root is after it); a remove or a replace leaves the others where
//     they stand. Export changes the part before the DOCTYPE, the part
//     between it and the root, and the epilog each on its own: the nodes
//     between the first and the last that stay are replaced in place
//     when as many of the same kinds take their places (a comment
//     rewritten), else the new ones are added beside a neighbour that
//     stays, or before the first of the old ones, or beside the root,
//     and the old ones removed. So a DOCTYPE that moves is the comments
//     it moves past removed on one side and added on the other. The one
//     place no selector addresses is before a DOCTYPE that nothing but
//     the XML declaration precedes (XPath selects no DOCTYPE and no
//     declaration to add beside): Export refuses an add there as
//     inexpressible, naming the operation and what it adds. White space
//     outside the root is not kept. The XML declaration is the processing
//     instruction tree.IsXMLDeclaration names; the comment an HTML parser
//     makes of one (tree.IsXMLDeclarationComment), which a delta leaves
//     out of what it says stands outside the root, is a comment() node
//     here, as the document was read: selectors count it, and a change
//     beside it leaves it where delta.Apply leaves it. One that came,
//     went, moved or changed between the versions (<!--?xml ?--> added
//     after the DOCTYPE) is in no delta, so in no patch: the patch keeps
//     the old version's, as delta.Apply does, and its result is the new
//     version but for them.
//   - Renames: RFC 5261 has no rename. Export replaces the renamed element
//     with itself as it ends up, and so an element whose namespace
//     declarations change (they change the names inside it), or whose
//     attribute an attribute step cannot name.
//   - Content an XML document cannot hold, which an HTML parser keeps (an
//     attribute named "<", a comment holding "--"), cannot be written:
//     Export and Encode refuse it, wrapping ErrInexpressible. So is a
//     carriage return in a comment or processing instruction (a tree
//     built by hand may hold one), which a parser would read as a line
//     feed.
//   - Moves: a delta's move is a remove and an add of the subtree as it is
//     in the new version; an update is a replace of the text, comment or
//     processing instruction in place when it keeps its XID and its place,
//     else a remove and an add.
//   - White space: ws="before", "after" or "both" on a remove is written
//     where the delta deletes the white-space text beside the removed
//     node, which only a document read with the white space kept has.
//     Text is otherwise written and read byte for byte (a carriage return
//     as &#xD;).
//   - Patch documents are read as UTF-8 without a DTD; an entity other
//     than XML's five is invalid-entity-declaration.
package xmlpatch
