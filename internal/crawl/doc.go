// Package crawl is Vigil's site crawler, a service: it runs a coupling
// query against the Web and returns a snapshot of the pages it reached and
// their links, the material that the webtable library turns into a web
// table and compares with the previous one (Δ+, Δ-, ΔM).
//
// Seed: Bhowmick, Madria and Ng, "Detecting and Representing Relevant Web
// Deltas in WHOWEDA" (seeds/000_1c3dd9e7af1b42ea.txt; notes/000-whoweda-deltas.md):
// §5.1 (the coupling query and its polling), §2.1-2.2 (nodes, links, and
// node identity by URL and last-modification date) and §8.1 (item 11: a
// content hash where a page has no Last-Modified).
//
// Phases of Crawl, in order:
//
//  1. The query (Query): a start URL, a scope of URL prefixes, each
//     ending at a path segment boundary (scope.go; by default the start
//     page's directory), an optional regular expression, a
//     maximum depth and a maximum number of URLs fetched.
//  2. The frontier, in the query's Order. Breadth first (OrderBreadth):
//     layer by layer, so that a page's Depth is its shortest link
//     distance from the start; each canonical URL is queued once. By
//     importance (OrderImportance, order.go, frontier.go): every URL
//     found is a page of an OPIC state (Cobéna's thesis ch. 7, note 001b
//     §1), read when its page is, and the URL with the most cash is
//     fetched next (the seed's Greedy policy, §7.4), in batches of
//     greedyBatch, within MaxDepth;
//     the URLs known are bounded by MaxPages (frontierURLs), a link to
//     another paying the virtual page, as a link to a deleted page does;
//     when the crawl is done its pages are put in the breadth-first order
//     and depths, so that a crawl MaxPages does not cut short gives the
//     same snapshot in both orders. URLs are fetched by a few workers at
//     once, through the vigil.Fetcher given (politeness per host,
//     robots.txt, the private-network guard), and their pages are
//     recorded in a fixed order, so the result does not depend on timing.
//  3. The page: its final URL after redirects is the node id (the
//     redirect is recorded); an HTML page's meta refresh to another page
//     within a few seconds is a redirect the fetcher follows as an HTTP
//     one (fetch.MaxRefreshDelay), so the page carrying it is no page of
//     the site (before, it was, and the page it led to was not reached).
//     A redirect is held to the rules a link is:
//     the fetcher reads robots.txt and waits its host's turn for every
//     hop (a disallowed target is a page with the fetcher's refusal, as
//     a link to it would be; a target with credentials, user:pass@, is
//     not followed, and the page that redirected is the one with the
//     refusal), and past the start page the crawl follows
//     a redirect only into the scope (vigil.FetchRequest.CheckRedirect):
//     a URL that redirects out of it is no page, only a Redirect, whose
//     target is not fetched. The start page's redirects are followed
//     wherever they lead, since they set the default scope. The page's
//     version is the Last-Modified date, else the SHA-256 of its body; an
//     HTML page, a feed, generic XML (readsBody), and a page served as
//     text that is not markup (text/plain, JSON, CSV: a text sitemap, an
//     llms.txt), is read as the warehouse reads it (warehouse.ReadBody,
//     under the markup parsers' size limit) for its title and links
//     (warehouse.ExtractSiteLinks, and frames, and an HTML page's <link>
//     elements of a paging relation, next, prev or previous, which lead
//     to the other pages of a listing as a feed's paging links do and
//     were not followed before, resolved against the
//     page's base as its views show them, intent.PageBase: the first
//     base element with an href, an ftp: or javascript: one passed over
//     for the page's URL), if it is a page or a list of pages
//     (readsLinks, below); a page read as
//     its source text (an HTML page that does not parse, XML that is not
//     well-formed, a page served as text that does not begin with "<")
//     has a Note that says so and why, no title, and for links the
//     http(s) URLs written in its text, labelled by their Markdown label
//     or else by the URL as written, and those its a and area elements
//     write relative in href (not an img's or a script's src nor a
//     stylesheet's href, relative or absolute, as of a page parsed),
//     resolved against its URL or its text's first base element (if
//     http or https) and labelled by their target (warehouse.ExtractTextLinks, through
//     intent.SourceLinks: the links a links sentinel reads in a page read
//     as text; until they were read, a crawl did not follow the relative
//     links of an HTML page too deep to parse, and a site diff against
//     such a crawl shows the pages reached only through them as added). A feed (served with its own type,
//     application/atom+xml, application/rss+xml or application/rdf+xml,
//     or as application/xml, text/xml, text/html, or text beginning with
//     "<": the warehouse reads each as XML) links to its feed links, as
//     ExtractLinks reads them (intent.FeedLinks: its entries' links,
//     enclosures and permalinks), and to its own other pages
//     (warehouse.ExtractSiteLinks,
//     intent.FeedLinksWithPages: RFC 5005's next, previous, first, last,
//     prev-archive, next-archive, current), feeds read as such, so that
//     the crawl reaches the entries of a feed split in pages, though a
//     links sentinel counts no such link. An XML sitemap of sitemaps.org
//     (root urlset or sitemapindex, in its namespace or none) links to
//     its <loc> URLs, a urlset's pages and an index's child sitemaps, in
//     document order, resolved against its URL, only http(s)
//     (warehouse.ExtractSiteLinks, intent.SitemapLinks), held to the
//     scope and MaxPages as every link is, so that a crawl starting at
//     /sitemap.xml reaches the pages it lists; it linked nowhere before,
//     and a links sentinel still reads it as any XML. Before, a feed linked
//     nowhere, then to every Atom link's href (self, edit, replies and its
//     pages among them), then only to its feed links; and until XML was
//     read, a page served as XML (a feed served with its own type among
//     them) was a leaf, without title or links. A snapshot keeps the links
//     found when it was crawled and is not read again, so a site diff
//     against one crawled before shows the pages reached only through the
//     links now followed as added (a feed's entries, or its older pages and
//     theirs, the targets of an XML page's links, a sitemap's pages), and
//     those reached only through the links no longer followed (a comments
//     feed of a replies link) as no longer reached; a page reached through
//     its pages, then and now, is neither, since a site diff compares pages,
//     not their links. An XML page itself is no change, as its version is
//     its date or hash, read or not; when it changes for the first time
//     after, its old title is told as empty, and one that is not well-formed
//     as read as text now. Only pages and lists of pages are read for
//     links (mediatype.go): HTML, XHTML, feeds served with their own
//     types, and generic XML (application/xml, text/xml, or text beginning
//     with "<") whose root is a feed's, a sitemap's or html; other XML
//     (an SVG image, MathML, an XSLT stylesheet, a vendor's +xml format,
//     generic XML of another root) is a leaf, without title or links, its
//     version its date or hash, and one that is not well-formed is no
//     longer read as text. Before, every XML type was read, and its
//     xlink:href and <a href> followed (an SVG's xlink:href to a shape of
//     another file was a page of the site), so a site diff against such a
//     crawl shows the pages reached only through them as no longer
//     reached. No format tells these crawls
//     apart (an XML page with links is a valid page of format 3): each
//     change was to links, which a site diff does not compare. Every
//     link is canonical, its fragment dropped, a link to a host IDNA or
//     DNS refuses (spec.CheckHostName) left out, and is held to the
//     scope, queued and weighed in importance alike; other documents
//     (binary: images, PDFs) are leaves, whose body the fetcher drops
//     after giving its digest and size (vigil.FetchRequest.DigestBinary,
//     BinaryDigest): their Hash and Size, and their version when they
//     came without Last-Modified; a PDF's digest leaves out what a
//     generator changes at every run (its Info dictionary's and its
//     annotations' dates, its /ID, its XMP packets, its font subsets'
//     tags, and the offsets they move, in a compressed
//     object stream too, in an encrypted file that opens without a
//     password too: package pdfdigest), so that a PDF generated per request
//     is not a change at every crawl, and a PNG, JPEG, GIF or WebP
//     image's leaves out its metadata (dates, software, comments, XMP; of
//     Exif all but the Orientation: package imagedigest), so that a chart
//     drawn per request is not either; a PDF or image hashed as its
//     bytes, in whole or in part (it does not parse, it needs a password,
//     a filter is not decoded), says why in its DigestNote, which no
//     comparison reads; a failure (an error status, a
//     refusal, a timeout, robots.txt) is a page with an error, not the end of the
//     crawl; a URL robots.txt disallows is Blocked, never requested, and
//     takes none of MaxPages's fetches (up to freeBlocked of them). Only the end of the context ends it.
//  4. The links: a page keeps its links in scope, each (target, label)
//     once (an http link whose https form, on the same host and default
//     ports, is in a scope of https, as a site that moved to https links
//     to its pages with their old scheme, read as that form: scope.go,
//     upgraded), the first MaxLinks (a page with more says so,
//     LinksTruncated, which LinksNote words for its change; a page no
//     longer reached while a page was cut may be linked past the cut:
//     CutNote), those to URLs not read too; when the crawl
//     is done, a target that redirected to a page of the snapshot is
//     replaced by that page's URL. The links to URLs not read tell
//     UnreadLinks that a page an earlier crawl read is still linked, cut
//     by the page limit or the depth: which of them an earlier crawl read
//     the crawl cannot know, so it keeps them all (keeping only MaxPages
//     of them told pages listed after them "no longer reached").
//  5. Importance (importance.go): OPIC over the graph of the pages read
//     (a page carried over among them) and their links between them,
//     read by Greedy from the seed's uniform cash, importanceReads times
//     a page, with the virtual page (α = opic.DefaultAlpha) that takes
//     the cash of pages without links; each page's importance is
//     (H + C − C0)/Z normalised over the pages read, and each site's
//     (origin's) the sum of its pages' (the seed's App. B). A page that
//     failed or that robots.txt blocked has none, and a link to it passes
//     nothing (its share goes to the page's other links), so the pages
//     read rank as they would without it. It depends on the snapshot, not
//     on the order of the fetches.
//  6. The table (Snapshot.Table): the snapshot as a web table (note 000
//     §3.3) for webtable.Diff, one web tuple per page read: the pages on
//     its path from the start in the breadth-first tree and the links
//     between them. Node id: the URL; version id: the page's version;
//     failed pages are no nodes. Two snapshots compared
//     (Snapshot.TableAgainst) compare a binary leaf's versions only where
//     both hashed it, the same way (the kind and revision of digest its
//     hash names: a Vigil that leaves out more of a PDF's or an image's
//     bytes than the one before reports none changed for that alone):
//     one made before binary leaves were hashed, or hashed otherwise, gives it
//     its Last-Modified date or "unversioned", and so the other's table
//     too, so that an upgrade reports a binary changed only where its
//     date changed, as before. Hashes of different kinds are compared
//     where the document, not the Vigil, made them differ: one of its
//     bytes with a DigestNote (a PDF or an image the digest no longer
//     reads), or documents of different media types.
//
// Differences from the seed:
//   - A coupling query in WHOWEDA is a graph pattern: node and link
//     variables, connectivities and predicates on metadata, content and
//     structure (note 000 §5.2), whose result is a set of web tuples. Here
//     it is a site crawl: one start node, links followed by URL (prefixes
//     and a regular expression), a depth bound. The snapshot is the graph
//     of all pages reached; Table cuts from it one tuple per page, the
//     page with its shortest link path from the start, so that a tuple
//     shows a page in the context that reaches it, as the seed's tuples
//     of a start node, links and a target do. A page reached by several
//     shortest paths gets the breadth-first tree's, the first found.
//   - The seed leaves out pages without a last-modification date (CGI
//     output); here their version is a hash of their content, and
//     VersionKind says which a page has; of a binary document, whose
//     body is not kept, the hash is taken as the fetcher reads it, of a
//     PDF without its generator's dates and identifiers (package pdfdigest),
//     which the seed, whose identity is the date, does not need. Its web
//     table (Snapshot.Table)
//     takes the content hash as a page's version by default (ByContent),
//     where the seed takes the date (ByDate): a site deployed again serves
//     every page under a new date, the same bytes.
//   - The seed does not say how URLs are normalised or how redirects are
//     handled (note 000 §8.2): here URLs are in vigil.CanonicalURL's form,
//     an internationalised host in its ASCII (punycode) form however a
//     link or a redirect spells it (spec.ASCIIHost), and a page is the
//     URL a redirect led to.
//   - Pages that fail are recorded with their error, so that a page that
//     disappears (404) is told apart from one the query no longer reaches.
//     A failure that passes (a 5xx or 429 answer, a timeout, a connection
//     refused or reset, an empty body where the page had one, which the
//     fetcher tells: vigil.EmptyBodyError, a robots.txt that answered
//     5xx, which disallows every page until it works:
//     vigil.ErrRobotsUnavailable, a page then neither Blocked nor read)
//     is marked Momentary, and Carry, given the previous
//     snapshot of the query, keeps the page's last good read in its place
//     (Page.Carried: the failure, the time of the read, the crawls in a
//     row), with the pages only it links to, at most MaxCarriedCrawls
//     crawls in a row and MaxCarriedAge after the first of them
//     (Carried.Since): a deploy's 503 deletes no page from the web table
//     and adds none back at the next crawl. Crawl never carries a page itself (a crawl shared by several
//     sentinels is carried by each from its own previous snapshot).
//     Snapshots of format 3 (FormatV3) have neither mark, and read.
//   - WHOWEDA's links are the hyperlinks of HTML documents. Here a page
//     read as text has links too, the URLs written in it, so that a site
//     whose index is a text sitemap (one URL a line, as sitemaps.org
//     allows) or an llms.txt is crawled through it. Snapshots of format 2
//     (FormatV2) and 1 did not read such pages, and are read as they were.
//   - Importance is not in WHOWEDA: it is OPIC's, from the seed of the
//     opic library. There, a crawl reads pages again and again and the
//     estimate converges as it goes; here a page is fetched once, so the
//     crawl's own OPIC state (one read a page) only orders the frontier,
//     and the snapshot's importance comes from reading its link graph
//     again in memory, importanceReads times a page (within about 1 % of
//     PageRank on the site corpus's top pages). The seed's Greedy takes
//     the richest of all pages; the frontier takes the richest of the
//     URLs not yet fetched, and a batch of them at once.
package crawl
