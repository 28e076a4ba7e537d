import java.nio.file.Path;
import org.opentest4j.reporting.tooling.converter.DefaultConverter;

/** Calls Open Test Reporting's own converter: events XML (args[0]) to hierarchical XML (args[1]). */
public class Convert {
    public static void main(String[] args) throws Exception {
        new DefaultConverter().convert(Path.of(args[0]), Path.of(args[1]));
    }
}
