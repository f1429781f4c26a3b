// fmt's compiled part, built once for the whole project.
//
// Every other file includes <fmt/format.h> without FMT_HEADER_ONLY, so it
// sees declarations only; their definitions (fmt/format-inl.h) are compiled
// here. Header-only use compiled them in each of 43 files, 3 to 5 s each
// (docs/architecture.md, "Start-up"). Debian ships libfmt only as a shared
// library, which would load libstdc++.so at every start, so it is not used.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

// The templates format.h declares `extern template` for, and the float
// conversions it declares without a definition.
template auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template auto thousands_sep_impl<wchar_t>(locale_ref) -> thousands_sep_result<wchar_t>;
template auto decimal_point_impl(locale_ref) -> char;
template auto decimal_point_impl(locale_ref) -> wchar_t;
template auto dragonbox::to_decimal(float x) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal(double x) noexcept -> dragonbox::decimal_fp<double>;

}  // namespace detail
FMT_END_NAMESPACE
