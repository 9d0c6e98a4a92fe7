package dev.strata.lang.funcs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/functions.md lists exactly the complete function table plus the evaluator's special forms. */
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
        Matcher m = Pattern.compile("(?m)^\\| [^|]+ \\| `([a-z0-9]+)` \\| ([a-z ,]+) \\|")
                .matcher(text);
        while (m.find()) {
            (m.group(2).startsWith("pending") ? pending : done).add(m.group(1));
        }
        Set<String> all = new TreeSet<>(dev.strata.lang.eval.TemplateFunctions.with(
                        ConsoleCasesTest.table(), dev.strata.lang.funcs.FunctionContext.system(repo))
                .names());
        all.addAll(FunctionTable.SPECIAL_FORMS);
        assertThat(done).isEqualTo(all);
        assertThat(pending).isEmpty();
    }
}
