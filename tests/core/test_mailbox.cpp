// Mail as mail clients keep it (core/text/mailbox.h): mbox splitting and ">From " unescaping on
// hand-written files with their expected messages byte for byte; a corpus of mbox files and of
// Maildirs gives the same documents, vocabulary and feature values as the same messages saved as
// .eml files in class folders (the existing pipeline is the reference); malformed mailboxes are
// one-line errors naming the file.

#include "core/data/loaders.h"
#include "core/text/mailbox.h"
#include "core/text/text_loaders.h"
#include "core/util/errors.h"
#include "file_helpers.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <string>

using namespace fdlab;
using namespace fdlab::test;
namespace fs = std::filesystem;

namespace {

// Three messages per class; the bodies hold "From " lines that an mbox writer escapes.
const std::string kHam[] = {
    "From: ann@example.org\nSubject: lunch today\n\nShall we meet for lunch today at noon?\nFrom the office.\n",
    "From: bob@example.org\nSubject: meeting notes\n\nThe meeting notes are attached to the wiki page today.\n>From quoted text\n",
    "From: cat@example.org\nSubject: =?UTF-8?Q?caf=C3=A9?= lunch\nContent-Type: text/plain; charset=utf-8\n"
    "Content-Transfer-Encoding: quoted-printable\n\nLunch at the caf=C3=A9 near the office, noon.\n",
};
const std::string kSpam[] = {
    "From: win@spam.test\nSubject: you win money\n\nWin money now, claim your free prize money today!\n",
    "From: deal@spam.test\nSubject: free offer\nContent-Type: text/html\n\n<p>Free <b>money</b> offer, claim now</p>\n",
    "From: x@spam.test\nSubject: prize\n\nYour prize is waiting: claim your free money.\n",
};

/// mboxrd: a separator line, the message with ">*From " lines escaped by one more '>', a blank line.
std::string mboxrd(const std::string* messages, int count) {
    std::string out;
    for (int k = 0; k < count; ++k) {
        out += "From sender@example.org Thu Nov 26 10:0" + std::to_string(k) + ":00 2026\n";
        std::size_t pos = 0;
        const std::string& m = messages[k];
        while (pos < m.size()) {
            const std::size_t end = m.find('\n', pos) + 1;
            const std::string line = m.substr(pos, end - pos);
            const auto first = line.find_first_not_of('>');
            if (first != std::string::npos && line.compare(first, 5, "From ") == 0 && pos != 0) out += '>';
            out += line;
            pos = end;
        }
        out += '\n';
    }
    return out;
}

}  // namespace

class TestMailbox : public QObject {
    Q_OBJECT

private slots:
    void splitsAndUnescapes() {
        const std::string mbox =
            "\n"
            "From a@b Mon Jan  1 00:00:00 2024\n"
            "Subject: one\n\nline\n>From escaped once\n>>From escaped twice\n> From not escaped\n\n"
            "From c@d Mon Jan  1 00:00:01 2024\n"
            "Subject: two\n\nlast\n";
        const auto msgs = splitMbox(mbox, "x.mbox");
        QCOMPARE(msgs.size(), std::size_t{2});
        QCOMPARE(msgs[0].line, 2L);
        QCOMPARE(msgs[1].line, 10L);
        QCOMPARE(msgs[0].raw, std::string("Subject: one\n\nline\nFrom escaped once\n>From escaped twice\n> From not escaped\n"));
        QCOMPARE(msgs[1].raw, std::string("Subject: two\n\nlast\n"));
        // CRLF files: the same split, the writer's blank "\r\n" dropped.
        const auto crlf = splitMbox("From a\r\nSubject: s\r\n\r\nbody\r\n\r\nFrom b\r\n\r\nx\r\n", "c.mbox");
        QCOMPARE(crlf.size(), std::size_t{2});
        QCOMPARE(crlf[0].raw, std::string("Subject: s\r\n\r\nbody\r\n"));
        QCOMPARE(crlf[1].raw, std::string("\r\nx\r\n"));
        // Our writer and the splitter are inverses on the fixtures.
        const auto ham = splitMbox(mboxrd(kHam, 3), "ham.mbox");
        QCOMPARE(ham.size(), std::size_t{3});
        for (int k = 0; k < 3; ++k) QCOMPARE(ham[static_cast<std::size_t>(k)].raw, kHam[k]);
    }

    void malformedMailboxes() {
        const std::string notMbox = dataErrorOf([] { splitMbox("Subject: hi\n\nbody\n", "notes.mbox"); });
        QVERIFY2(notMbox.find("notes.mbox:1:") == 0 && notMbox.find("'From '") != std::string::npos, notMbox.c_str());
        const std::string empty = dataErrorOf([] { splitMbox("\n\n", "empty.mbox"); });
        QVERIFY2(empty.find("empty.mbox") == 0 && empty.find("found none") != std::string::npos, empty.c_str());

        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        writeAll(root / "a/ham.mbox", mboxrd(kHam, 3));
        fs::create_directories(root / "a/spam/cur");   // a Maildir without messages
        fs::create_directories(root / "a/spam/new");
        const std::string noMail = dataErrorOf([&] { loadTextFolder((root / "a").string()); });
        QVERIFY2(noMail.find("spam") != std::string::npos && noMail.find("Maildir holds no message") != std::string::npos, noMail.c_str());
        writeAll(root / "b/ham.mbox", mboxrd(kHam, 3));
        writeAll(root / "b/spam.mbox", "garbage first line\nFrom x\n\nbody\n");
        const std::string bad = dataErrorOf([&] { loadDataFile((root / "b").string()); });
        QVERIFY2(bad.find("spam.mbox:1:") != std::string::npos, bad.c_str());
        QVERIFY(bad.find('\n') == std::string::npos);
        writeAll(root / "c/only.mbox", mboxrd(kHam, 3));
        const std::string one = dataErrorOf([&] { loadDataFile((root / "c").string()); });
        QVERIFY2(one.find("found 1 class(es)") != std::string::npos, one.c_str());
    }

    void mailboxesEqualEmlFolders() {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        // Reference: the messages as .eml files, one folder per class.
        for (int k = 0; k < 3; ++k) {
            writeAll(root / "eml/ham" / ("m" + std::to_string(k) + ".eml"), kHam[k]);
            writeAll(root / "eml/spam" / ("m" + std::to_string(k) + ".eml"), kSpam[k]);
        }
        // mbox files as a mail client exports them.
        writeAll(root / "mbox/ham.mbox", mboxrd(kHam, 3));
        writeAll(root / "mbox/spam.mbox", mboxrd(kSpam, 3));
        // Maildirs: messages in cur/ and new/ (Maildir names); tmp/ and dot files skipped.
        for (int k = 0; k < 3; ++k) {
            const std::string sub = k == 2 ? "new" : "cur";
            writeAll(root / "maildir/ham" / sub / ("17000" + std::to_string(k) + ".M1P2.host:2,S"), kHam[k]);
            writeAll(root / "maildir/spam" / sub / ("17000" + std::to_string(k) + ".M1P2.host:2,"), kSpam[k]);
        }
        writeAll(root / "maildir/ham/tmp/partial", "From: half a message");
        writeAll(root / "maildir/spam/cur/.hidden", "not a message");
        // One of each kind in one corpus.
        writeAll(root / "mixed/ham.mbox", mboxrd(kHam, 3));
        for (int k = 0; k < 3; ++k) writeAll(root / "mixed/spam/cur" / ("m" + std::to_string(k)), kSpam[k]);

        const Dataset ref = loadDataFile((root / "eml").string());
        QCOMPARE(ref.rows(), 6);
        QVERIFY(ref.features() >= 5);   // words in at least 2 documents: lunch, today, money, claim, free, ...
        for (const char* kind : {"mbox", "maildir", "mixed"}) {
            const Dataset d = loadDataFile((root / kind).string());
            QVERIFY2(d.isSparse(), kind);
            QCOMPARE(d.classNames, ref.classNames);
            QCOMPARE(d.labels, ref.labels);
            QCOMPARE(d.featureNames, ref.featureNames);
            QCOMPARE(*d.sparse, *ref.sparse);
        }
        const TextCorpus mbox = loadTextFolder((root / "mbox").string());
        QCOMPARE(mbox.ids.front(), std::string("ham/ham.mbox#1"));
        QCOMPARE(mbox.ids.back(), std::string("spam/spam.mbox#3"));
        // The decoded Subject (RFC 2047) and quoted-printable body went through the MIME pipeline.
        QVERIFY(mbox.documents.docs[2].text.find("caf\xC3\xA9 lunch") != std::string::npos);
        QVERIFY(mbox.documents.docs[1].text.find("From quoted text") != std::string::npos);
        const TextCorpus maildir = loadTextFolder((root / "maildir").string());
        QCOMPARE(maildir.ids.size(), std::size_t{6});
        QCOMPARE(maildir.ids.front(), std::string("ham/cur/170000.M1P2.host:2,S"));
        QCOMPARE(maildir.ids[2], std::string("ham/new/170002.M1P2.host:2,S"));
    }
};

QTEST_GUILESS_MAIN(TestMailbox)
#include "test_mailbox.moc"
