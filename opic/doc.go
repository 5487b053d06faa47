// Package opic computes page importance on line, while crawling, without
// storing the link graph, and adapts it as the graph changes: OPIC and
// adaptive OPIC, with the site importance and the site refresh order that
// the crawler and the scheduler build on.
//
// # Seed
//
// Grégory Cobéna, "Change management of semi-structured data on the Web",
// PhD thesis, École Polytechnique, 2003, Part II: chapter 7 "On-line
// computation of page importance" (S. Abiteboul, M. Preda, G. Cobéna,
// "Adaptive on-line page importance computation", WWW 2003), chapter 8 "A
// first experience in archiving the French web" (ECDL 2002) and appendix B
// (site-based importance). The reader's note
// shared/notes/001b-cobena-opic-archive.md gives the pseudo-code and the
// worked examples the tests use.
//
// # Phases, in the seed's order
//
//  1. Model (§7.2): a graph read row by row (LinkGraph, Graph), with the
//     virtual page that every page links to and that links to every page,
//     so that the augmented graph is strongly connected.
//  2. OPIC (§7.3, Fig. 7.1): cash C and history H per page, the total Z =
//     Σ H (OPIC.Read); importance H/Z (OPIC.Importance) or (H + C)/(Z + 1)
//     (OPIC.Estimate), and (H + C − C0)/Z (OPIC.Propagated, see below).
//  3. Crawl policies (§7.4): Random, Greedy (most cash first, a heap) and
//     Cycle, behind Policy.
//  4. Adaptive OPIC (§7.5): history policies Interpolation (two numbers a
//     page), VariableWindow and FixedWindow; Z as the clock; a changing
//     graph (OPIC.AddPage, OPIC.Delete, OPIC.Merge).
//  5. The off-line reference (§7.6): PageRank by power iteration on the same
//     augmented graph, and the seed's error measures (MeanRelativeError,
//     SubsetRelativeError over TopPages, and Spearman's rank correlation).
//  6. Archiving (§8.3-8.4, App. B): the site graph and site importance
//     (NewSiteGraph, SiteImportance), the change rate of a site
//     (SiteChangeRate) and the refresh order ρ = i · age · ch / pages
//     (RefreshOrder).
//  7. Persistence: OPIC.WriteTo and Decode, 20 bytes a page; or, with
//     Interpolation, each page's estimate alone, from which Resume (and
//     OPIC.ResumeHistory for a page that joins later) gives a new state
//     the pages' histories back.
//
// # Symbols
//
//   - C[i], H[i], Z: OPIC.Cash, OPIC.History, OPIC.Z. Σ C = 1 (Lemma 7.3.2)
//     and Σ H = Z (with cumulative history) are checked by the tests.
//   - α: Config.Alpha, the share of a read page's cash paid to the virtual
//     page; DefaultAlpha = 0.15 makes the fixpoint PageRank with damping
//     0.85.
//   - T: Interpolation.Window, in Z units (InterpolationWindow converts a
//     wall-clock window); Z[i]: OPIC.LastRead.
//   - 2.1: InDegreeExponent, the in-degree law of the synthetic graphs.
//   - θ, ρ: Theta, Rho; ch(S), ch̄(S): SiteChangeRate.
//
// # Differences from the seed
//
//   - The weight of the "small" edges to the virtual page is left open by the
//     seed. Here a page with d ≥ 1 links sends α of its cash to the virtual
//     page and (1−α)/d to each link; a dangling page sends everything to the
//     virtual page; the virtual page pays all live pages uniformly. This
//     makes the real-page fixpoint exactly PageRank with damping 1−α (the
//     note's §1.4 derivation), where the literal reading (the virtual page
//     as one more child, share 1/(d+1)) gives an out-degree-dependent
//     teleport. α = 0 with a strongly connected graph is Fig. 7.1 exactly.
//   - "The cash of the virtual page is not distributed all at once": the
//     seed gives no rule. Here the virtual page is read after every page
//     read, and its uniform payout costs O(1): a global g is added to every
//     page's cash implicitly (the note's lazy accumulator), and folded into
//     the pages every few passes so that the greedy heap's float32 keys stay
//     precise. Biasing the payout (discovery, focus, news) is not
//     implemented; it would change the fixpoint to a personalised PageRank.
//   - An estimate the seed does not give: OPIC.Propagated, (H + C − C0)/Z.
//     By Lemma 7.3.3, H + C − C0 is H·L', the history of a page's parents
//     along the links: the history moved one step further, and free of the
//     initial cash C0 = 1/n, a uniform offset that dominates the estimate of
//     pages with little history. With Greedy it reaches on the top 10 % of
//     pages after 3 reads a page the error (H + C)/(Z + 1) reaches after 5
//     (BENCHMARKS.md); with Random it is noisier on the top pages. Both are
//     offered (Estimator); C0 is kept as n0 plus the initial cash merged by
//     redirects.
//   - Z includes the virtual page's history, so Σ H = Z holds over the
//     augmented graph. Importances, the vector compared with PageRank, is
//     normalised over the live real pages.
//   - The estimators of the window policies are not in the seed (note §1.6):
//     Interpolation estimates H/T, and "as of now" (Estimate) applies the
//     update rule with the cash not yet read; VariableWindow and FixedWindow
//     estimate (Σ c + C) / (Z − z₀), where z₀ is the Z of the read before
//     the oldest kept measure, so that every stored measure counts. Window
//     policies keep cumulative H besides their measures, and are not
//     persisted: they are for comparison, as in the seed's experiments.
//   - New pages (the seed's sentence is truncated): no cash and no history,
//     Z[i] = the Z of their discovery, so their first Interpolation window
//     starts there and the as-of-now estimate gives them the cash received
//     since.
//   - Deleted and 404 pages (the seed is silent): their cash goes to the
//     virtual page, so Σ C stays 1; their history stays in Z (Z is a clock
//     and never goes back); links to them pay the virtual page. Redirects
//     merge cash and history into the target (for Interpolation, the sum of
//     two windows: an approximation); window measures of the merged page
//     are dropped.
//   - Resuming from estimates (the seed keeps the whole state): a crawler
//     that stores only each page's estimate H/T (the monitor, one number a
//     page in its store) starts a new state with H = estimate·T and the
//     cash spread in proportion to the estimates (Resume); the cash in
//     flight in the old state is lost, and the window forgets the
//     difference.
//   - Lemma 7.3.3 divides by out[i] twice when L is Google's matrix (note
//     §1.3); the tests check the identity with L[i,j] = 1/out[i] once.
//   - Page state, 24 bytes: cash float64 (it holds C − g), Z[i] float64, H
//     float32 (rounding about 1e-7 relative, far below the estimates'
//     error) and the page's Greedy heap slot; the heap adds 8 bytes a page.
//     The encoding takes 20 bytes a page. A deleted page is marked by
//     Z[i] = −1.
//   - Synthetic graphs: the seed's generator is "details omitted"; PowerLaw
//     draws each page's in-degree from k^−2.1 and its in-links from uniform
//     sources, and drops self-links and repeated links (as NewGraph does for
//     every graph). Rewire halves a page's in-degree by dropping each in-link
//     with probability 1/2, so "divided by two" holds on average.
//   - Site importance: the seed proves site PageRank = the sum of page
//     PageRanks (Theorem B.0.1) without damping. SiteGraph.Rank takes the
//     virtual site's payout vector: uniform over sites (nil), or in
//     proportion to the sites' page counts, which is what the virtual page
//     pays them, and then the theorem holds with damping too (tested). The
//     App. B proof's typos (note §3.5) do not affect the result, which the
//     tests check on its example. The "1/out(Y)" approximation counts Y
//     itself when Y has internal links.
//   - Refresh order: θ uses ch(S) as the seed writes it, and SiteChangeRate
//     returns both the recommended weighted mean ch̄(S) and the upper bound
//     Σ ch(p); the caller chooses. Staleness is counted in days, change rates
//     in changes per year, as in the note's example; units do not change the
//     order. The change-rate estimator of [79] is not in the seed and not
//     here.
package opic
