// Class-name ordering shared by the tabular and the text loaders (see label_collector.h).

#include "core/util/label_collector.h"

#include "core/util/strings.h"

#include <algorithm>
#include <charconv>

namespace fdlab::detail {

int LabelCollector::add(std::string_view name) {
    // Heterogeneous lookup needs C++20 transparent hashing; a temporary string is cheap enough.
    std::string key(name);
    auto it = m_ids.find(key);
    if (it != m_ids.end()) return it->second;
    const int id = static_cast<int>(m_names.size());
    m_ids.emplace(key, id);
    m_names.push_back(std::move(key));
    return id;
}

void LabelCollector::finish(std::vector<int>& labels, std::vector<std::string>& classNames) const {
    const std::size_t k = m_names.size();
    std::vector<double> value(k, 0.0);
    bool numeric = true;
    for (std::size_t c = 0; c < k && numeric; ++c) {
        float v = 0;
        // Parse as double for ordering, but through the same grammar as feature values.
        if (parseNumber(m_names[c], v) != NumberStatus::Ok) {
            numeric = false;
            break;
        }
        std::string_view s = m_names[c];
        if (s.size() > 1 && s[0] == '+') s.remove_prefix(1);
        double dv = v;
        std::from_chars(s.data(), s.data() + s.size(), dv);
        value[c] = dv;
    }
    std::vector<int> order(k);
    for (std::size_t c = 0; c < k; ++c) order[c] = static_cast<int>(c);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
        if (numeric && value[ua] != value[ub]) return value[ua] < value[ub];
        return m_names[ua] < m_names[ub];
    });
    std::vector<int> rank(k);
    classNames.clear();
    for (std::size_t r = 0; r < k; ++r) {
        rank[static_cast<std::size_t>(order[r])] = static_cast<int>(r);
        classNames.push_back(m_names[static_cast<std::size_t>(order[r])]);
    }
    for (int& l : labels) l = rank[static_cast<std::size_t>(l)];
}

}  // namespace fdlab::detail
