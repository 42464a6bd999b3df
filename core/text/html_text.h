#pragma once
// HTML -> the plain text a reader sees, for HTML-only e-mail bodies.
//
// Rules, applied in one left-to-right pass over UTF-8 input:
// - `<!-- ... -->` comments vanish without a trace (`A<!-- x -->ccept` reads "Accept", as in a
//   browser), and the contents of <script>, <style> and <title> (up to the
//   matching close tag, or the end of the input) are dropped;
// - a tag is `<` + a letter, `/`, `!` or `?`, up to the next `>` outside quotes. Inline tags
//   (a, abbr, b, big, code, em, font, i, s, small, span, strike, strong, sub, sup, tt, u) vanish
//   without a trace, so `F<b>RE</b>E` reads "FREE"; block tags (address, blockquote, br, center,
//   div, dl, dt, dd, form, h1-h6, hr, li, ol, p, pre, table, tr, ul) become a line break; any
//   other tag becomes a space. A `<` that starts no tag is kept; a tag never closed by `>` drops
//   the rest of the input;
// - entities: &#N; and &#xH; (invalid code points -> U+FFFD), and the named ones amp lt gt quot
//   apos nbsp (-> a plain space) copy reg trade hellip mdash ndash laquo raquo lsquo rsquo ldquo
//   rdquo bull middot euro pound yen cent sect deg plusmn times divide iexcl iquest, and the
//   Latin-1 letters (eacute, Eacute, szlig, ...); a `;` is required within 11 bytes of the
//   `&`, not counting a numeric entity's leading zeros (`&#0000000000105;` is "i") (so text full of `&` is read in linear time), anything else stays as is;
// - whitespace in the source is a space; then each run of whitespace becomes one space, or one
//   line break if it holds one break, or a blank line if it holds two or more; the result is
//   trimmed.

#include <string>
#include <string_view>

namespace fdlab {

/// The visible text of an HTML document (see above). Input and output UTF-8.
std::string htmlToText(std::string_view html);

}  // namespace fdlab
