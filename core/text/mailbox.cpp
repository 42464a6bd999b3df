#include "core/text/mailbox.h"

#include "core/util/strings.h"
#include "core/util/errors.h"

#include <algorithm>
#include <system_error>

namespace fdlab {

namespace {

bool isSeparator(std::string_view line) { return line.substr(0, 5) == "From "; }

/// ">From ", ">>From ", ...: an escaped body line.
bool isEscapedFrom(std::string_view line) {
    const auto k = line.find_first_not_of('>');
    return k != 0 && k != std::string_view::npos && line.substr(k, 5) == "From ";
}

}  // namespace

std::vector<MboxMessage> splitMbox(std::string_view bytes, const std::string& path) {
    std::vector<MboxMessage> messages;
    long lineNo = 0;
    std::size_t pos = 0;
    while (pos < bytes.size()) {
        std::size_t end = bytes.find('\n', pos);
        end = end == std::string_view::npos ? bytes.size() : end + 1;   // the line, '\n' included
        const std::string_view line = bytes.substr(pos, end - pos);
        ++lineNo;
        pos = end;
        if (isSeparator(line)) {
            messages.push_back({std::string(), lineNo});
            continue;
        }
        if (messages.empty()) {
            if (line.find_first_not_of(" \t\r\n") == std::string_view::npos) continue;
            throw DataError(path, lineNo, "expected an mbox file starting with a 'From ' line, found " +
                                              detail::inQuotes(line.substr(0, line.find_last_not_of("\r\n") + 1)));
        }
        std::string& raw = messages.back().raw;
        if (isEscapedFrom(line)) raw.append(line.substr(1));
        else raw.append(line);
    }
    if (messages.empty()) throw DataError(path, 0, "expected at least one message ('From ' line), found none");
    // The writer's blank line before each separator (and at the end) belongs to no message.
    for (MboxMessage& m : messages) {
        if (m.raw.ends_with("\r\n\r\n")) m.raw.resize(m.raw.size() - 2);
        else if (m.raw.ends_with("\n\n")) m.raw.pop_back();
    }
    return messages;
}

bool isMaildir(const std::filesystem::path& dir) {
    std::error_code ec;
    return std::filesystem::is_directory(dir / "cur", ec) || std::filesystem::is_directory(dir / "new", ec);
}

std::vector<std::filesystem::path> maildirMessages(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> all;
    for (const char* sub : {"cur", "new"}) {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir / sub, ec)) continue;
        std::vector<std::filesystem::path> files;
        for (const auto& entry : std::filesystem::directory_iterator(dir / sub, ec))
            if (entry.is_regular_file() && entry.path().filename().string().front() != '.') files.push_back(entry.path());
        if (ec) throw DataError((dir / sub).string(), 0, "cannot list the folder: " + ec.message());
        std::sort(files.begin(), files.end());
        all.insert(all.end(), files.begin(), files.end());
    }
    return all;
}

bool isMboxFile(const std::filesystem::path& file) {
    std::string name = detail::toLower(file.filename().string());
    if (name.ends_with(".gz")) name.resize(name.size() - 3);
    return name.ends_with(".mbox") || name.ends_with(".mbx") || name == "mbox";
}

}  // namespace fdlab
