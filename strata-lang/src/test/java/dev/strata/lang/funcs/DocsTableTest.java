package dev.strata.lang.funcs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/functions.md lists exactly the functions the table has, plus those pending the evaluator. */
class DocsTableTest {
  @Test
  void docsTableMatchesTheFunctionTable() throws Exception {
    Path repo = Path.of(System.getProperty("strata.repo.dir", ".."));
    Path doc = repo.resolve("docs/functions.md");
    if (!Files.exists(doc)) {
      doc = Path.of("..", "docs", "functions.md");
    }
    String text = Files.readString(doc);
    Set<String> done = new TreeSet<>();
    Set<String> pending = new TreeSet<>();
    Matcher m = Pattern.compile("(?m)^\\| [^|]+ \\| `([a-z0-9]+)` \\| ([a-z ,]+) \\|").matcher(text);
    while (m.find()) {
      (m.group(2).startsWith("pending") ? pending : done).add(m.group(1));
    }
    assertThat(done).isEqualTo(ConsoleCasesTest.table().names());
    assertThat(pending).isEqualTo(FunctionTable.PENDING_EVALUATOR);
  }
}
