package pdfdigest

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

// TestSumGolden: the files of testdata (those Sum reads) and the PDFs
// writePDF writes hash as they did when their sums were recorded here, so
// that a change to the normal form that is to leave a file alone does:
// every site's stored hash of a PDF is such a sum, and a PDF that hashes
// otherwise after an upgrade is reported changed. A change that is meant
// to move them grows the crawl's kind of PDF digest (internal/crawl,
// pdfDigest) and records the new sums.
func TestSumGolden(t *testing.T) {
	for _, tc := range []struct{ file, sum string }{
		{"pdf/cairo-1.pdf", "6df540a3777cad305cd1ca9ac0783e3b8f62936dba1b2748f0c73848f8f66fb2"},
		{"pdf/cairo-2.pdf", "6df540a3777cad305cd1ca9ac0783e3b8f62936dba1b2748f0c73848f8f66fb2"},
		{"pdf/cairo-word.pdf", "d53447e9d7b0363e25091a34024a017bc57f596dd4796489ada1acd163d767f5"},
		{"pdf/ghostscript-1.pdf", "907e297453efad5466ae614cfacf7d495768255c36e46fe5818412aaf7e30ce4"},
		{"pdf/ghostscript-2.pdf", "907e297453efad5466ae614cfacf7d495768255c36e46fe5818412aaf7e30ce4"},
		{"pdf/ghostscript-word.pdf", "5d5a4db6dc047e4cb741afa1011c3a2028809814a20158678301164778f3f29d"},
		{"pdf/qpdf-linearized-1.pdf", "f8739e6c94680a6a2588927120555950cafd5c803dfc53c1c444aba8b2886148"},
		{"pdf/qpdf-linearized-2.pdf", "f8739e6c94680a6a2588927120555950cafd5c803dfc53c1c444aba8b2886148"},
		{"pdf/qpdf-linearized-objstm-1.pdf", "ed0b980bc9d303e00ee4d590416564dd626d2721855f48a4a56121b9f3d4e4b7"},
		{"pdf/qpdf-linearized-objstm-2.pdf", "ed0b980bc9d303e00ee4d590416564dd626d2721855f48a4a56121b9f3d4e4b7"},
		{"pdf/qpdf-linearized-objstm-word.pdf", "a14213b4304b6a3c3b7181fd8668f62e8cd471224067d5d5b5648058598673cc"},
		{"pdf/qpdf-linearized-word.pdf", "8ca5c5e33eec2ecb0ac7d2254b0036189934e1f43e29e61899906e766e10143d"},
		{"pdf/qpdf-objstm-1.pdf", "453e7ead620f54bf6d2f1e58a79763f276edf03b697d59009a9c5bcd2eeecbba"},
		{"pdf/qpdf-objstm-2.pdf", "453e7ead620f54bf6d2f1e58a79763f276edf03b697d59009a9c5bcd2eeecbba"},
		{"pdf/qpdf-objstm-word.pdf", "6e867058990d77eba529613a2e0f816f0e977a8ad9e2c3d6fc696e37bd7bfe07"},
		{"pdf/reportlab-1.pdf", "400bd1acbbe9f3b1c746cb1e8c73b47e3a6e9f4015ca42bd81eb517d7bc578d0"},
		{"pdf/reportlab-2.pdf", "400bd1acbbe9f3b1c746cb1e8c73b47e3a6e9f4015ca42bd81eb517d7bc578d0"},
		{"pdf/reportlab-word.pdf", "1cdb45ae19ec4adbdb566d9077469c13969b16a38981a34209ffe823c65005ba"},
		{"pdf/revision-dates-1.pdf", "5eb9c23a24647d6d58fbaca384824411089dce89db1ebe99218fb3a785f7f715"},
		{"pdf/revision-dates-2.pdf", "5eb9c23a24647d6d58fbaca384824411089dce89db1ebe99218fb3a785f7f715"},
		{"pdf/revision-word-1.pdf", "b33139e2b47fc48ec47aa912f9097e356dcb70d60c1457a230bf6407268253cb"},
		{"pdf/revision-word-2.pdf", "89001fc2da1a31198573624dcd57d3ad1d7efb7275dd4216a7a248be1189a907"},
		{"encrypted/encrypted-aes-128-1.pdf", "285daced49d510458d4e6e69f4051048b05c7b0a60f28197d8ef79aba0e70d0d"},
		{"encrypted/encrypted-aes-128-2.pdf", "285daced49d510458d4e6e69f4051048b05c7b0a60f28197d8ef79aba0e70d0d"},
		{"encrypted/encrypted-aes-128-again.pdf", "285daced49d510458d4e6e69f4051048b05c7b0a60f28197d8ef79aba0e70d0d"},
		{"encrypted/encrypted-aes-128-word.pdf", "a753b9ecd310ca10ebf51e1b523f1437d46a80618d19d6a192b4ec7219687441"},
		{"encrypted/encrypted-aes-256-1.pdf", "e5e4bef2050b968d4e611e8d183b4d10fcb54d695fc54649d4041f7df6868f43"},
		{"encrypted/encrypted-aes-256-2.pdf", "e5e4bef2050b968d4e611e8d183b4d10fcb54d695fc54649d4041f7df6868f43"},
		{"encrypted/encrypted-aes-256-linearized-1.pdf", "79c6b34830fcd0074594349ee0394081ec1253d9d93cd1d8b64505985101b30e"},
		{"encrypted/encrypted-aes-256-linearized-2.pdf", "79c6b34830fcd0074594349ee0394081ec1253d9d93cd1d8b64505985101b30e"},
		{"encrypted/encrypted-aes-256-linearized-word.pdf", "ebe9eb8b573c14e852bc85b7f5e64689ff8bff194a0f8ea37e782f5776b9a916"},
		{"encrypted/encrypted-aes-256-r5-1.pdf", "5d7b5be65d5c6421cdb5a3e7bba82ee2a266081c5a99b15ccb0fb413b0fc983a"},
		{"encrypted/encrypted-aes-256-r5-2.pdf", "5d7b5be65d5c6421cdb5a3e7bba82ee2a266081c5a99b15ccb0fb413b0fc983a"},
		{"encrypted/encrypted-aes-256-table-1.pdf", "ef4b79e0ca4527b4cfcda87ac0cb14cf55bd4b5449809907ac87884834df242a"},
		{"encrypted/encrypted-aes-256-table-2.pdf", "ef4b79e0ca4527b4cfcda87ac0cb14cf55bd4b5449809907ac87884834df242a"},
		{"encrypted/encrypted-aes-256-table-word.pdf", "ea7bd30062e0d77d1e014854d4189c659c24ba5ddd232cfbd06d0b1fb2fa69d2"},
		{"encrypted/encrypted-aes-256-word.pdf", "92e45d3949df6703749bf17ec728a1c5383a0591a4342ddcb9d53e9e7cf19fda"},
		{"encrypted/encrypted-rc4-128-1.pdf", "d6c9f8dd9b634f2ef69e5ce566beef524e3ca10778de7d36edbd139cc6bebb99"},
		{"encrypted/encrypted-rc4-128-2.pdf", "d6c9f8dd9b634f2ef69e5ce566beef524e3ca10778de7d36edbd139cc6bebb99"},
		{"encrypted/encrypted-rc4-128-table-1.pdf", "af85ad828f9bdea28c151d88710b601dca8a292ae946ffac2124a219cc2042ac"},
		{"encrypted/encrypted-rc4-128-table-2.pdf", "af85ad828f9bdea28c151d88710b601dca8a292ae946ffac2124a219cc2042ac"},
		{"encrypted/encrypted-rc4-128-table-word.pdf", "42b8f5d2e1e057b841a4107ea443f50ef045c6723f411022deeee56197d7f845"},
		{"encrypted/encrypted-rc4-128-word.pdf", "5794d420cee380572de4a2735a26ad5a4c50ec06a588edc8887cd9d1248b8083"},
		{"encrypted/encrypted-rc4-40-1.pdf", "0e0a8fbd4f74a1bbfd51770a8c3bab0f164e6a7ae93e9410b16d58e10c90b824"},
		{"encrypted/encrypted-rc4-40-2.pdf", "0e0a8fbd4f74a1bbfd51770a8c3bab0f164e6a7ae93e9410b16d58e10c90b824"},
		{"encrypted/encrypted-rc4-40-word.pdf", "de1b440e99ab78d0918e41fb9d5c2a86b86a3c435914a3a23fd5a7527d3d9128"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			sum := mustSum(t, b, nil)
			if got := hex.EncodeToString(sum[:]); got != tc.sum {
				t.Errorf("sum %s, want %s", got, tc.sum)
			}
		})
	}
	for _, tc := range []struct {
		filter             string
		objStm, linearized bool
		sum                string
	}{
		{"", false, false, "790eb1de6e3f15acad40e6fc234e65be6e3cd91ba1a0903f4ded418117a2a11e"},
		{"", true, false, "6a48c017d16888961190f0598a16df6515be8d410b1c7fdd3de4e90e5c6ee858"},
		{"", false, true, "b5059893afc313efe7fad809293c2893690b7f0ae2ea6c944fb2b834a435f935"},
		{"flate-png-optimum", false, false, "b17c23fa2802d4e6652784378d742e864abe8b8efe0affdebeec457e4ee7aee9"},
		{"flate-png-optimum", true, false, "bb2978da6c8635d33e8a39776373dd4f268ddb862019dcb31bc33175de3e25a6"},
		{"flate-png-optimum", false, true, "5737e3682a6d90bfe2755407adc91ba37221c2c4b28160ab117225d18a3df53e"},
		{"flate-tiff", false, false, "ebd3a9b45c8e712d0d90068ca9238db10595f98e6b51905def180b618222a5e2"},
		{"flate-tiff", true, false, "1b00a9cba923e008a853f7bf78f241578f5226986c8e945533fbf33512b45b21"},
		{"flate-tiff", false, true, "250dc75fc68c6476e8f25f718a2d1d7683724dc85a36ae3da044279b8b4924ea"},
		{"lzw", false, false, "20c94bd36c1c4881b2183197b67dd9aae92b78d8d2b209aa23d07912d16fec51"},
		{"lzw", true, false, "00dee86575c7dd14346da86efd48bce78640bdc822e6a29f55467e46dd43071c"},
		{"lzw", false, true, "69cc3fba71032c383283181d633b82a635c50c0584a30bb03e803ec6f1c2f7e7"},
		{"ahx-flate-png", false, false, "43c8ddb40f2da3cc9cb61664cc0344ea9d954fa5ef58424790a913b3769586c2"},
		{"ahx-flate-png", true, false, "18578cb65af4b5da60d7b48bb163dac3efbc298eb759486492cd1cf94bb3321e"},
		{"ahx-flate-png", false, true, "47da3bab3e544db7c02b31a876ef103ce413de917c25cf692eafe9cb8913aed2"},
		{"a85-flate", false, false, "7816e02e8ac82c458f9a12e4c810efb10670df4e9e507b267854340fe5792331"},
		{"a85-flate", true, false, "92dcc5741bc8924c9fe6c1b2fc82dd4e332508d4204b8c1e385c468d547043d0"},
		{"a85-flate", false, true, "cf1d89d04627a55ee0398a2cd465daad180e374eec75d4a1967602aff0378e89"},
	} {
		r := firstPDFRun()
		r.ObjectStreams, r.Linearized, r.Filter = tc.objStm, tc.linearized, tc.filter
		sum := mustSum(t, writePDF(r), nil)
		if got := hex.EncodeToString(sum[:]); got != tc.sum {
			t.Errorf("writePDF(filter %q, object streams %v, linearized %v): sum %s, want %s", tc.filter, tc.objStm, tc.linearized, got, tc.sum)
		}
	}
}
