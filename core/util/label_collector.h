#pragma once
// Class names as the loaders collect them (tabular formats, text folders and CSV, message
// bundles), ordered one way for all of them.

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fdlab::detail {

/// Collects class names as they appear, then orders them: numerically if every name is a finite
/// number, else lexicographically (byte order); ties between numerically equal spellings ("1",
/// "1.0") are broken lexicographically.
class LabelCollector {
public:
    /// Returns a provisional id for `name`.
    int add(std::string_view name);
    /// Replaces the provisional ids in `labels` by indices into the sorted `classNames`.
    void finish(std::vector<int>& labels, std::vector<std::string>& classNames) const;

private:
    std::unordered_map<std::string, int> m_ids;
    std::vector<std::string> m_names;
};

}  // namespace fdlab::detail
