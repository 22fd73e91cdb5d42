package dev.basalt.server.standalone;

import dev.basalt.util.config.Config;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Reads a configuration file in either of the two forms HBase users have: Hadoop's XML ({@code
 * basalt-site.xml}, same layout as {@code hbase-site.xml}) or a Java properties file. Values set on
 * the command line win over the file.
 *
 * <pre>
 * &lt;configuration&gt;
 *   &lt;property&gt;&lt;name&gt;hbase.rootdir&lt;/name&gt;&lt;value&gt;/data/basalt&lt;/value&gt;&lt;/property&gt;
 * &lt;/configuration&gt;
 * </pre>
 *
 * <p>Document type declarations are refused, so a configuration file cannot pull in other files or
 * URLs. Every problem is reported with the file name (and the line, for XML).
 */
public final class SiteConfig {
  private SiteConfig() {}

  /**
   * @param file an {@code .xml} or {@code .properties} file, or null for none
   * @param overrides values that win over the file's (from {@code -Dkey=value})
   * @throws IOException naming the file when it is missing or malformed
   * @throws IllegalArgumentException naming the key when a value is invalid
   */
  public static Config load(Path file, Map<String, String> overrides) throws IOException {
    Config.Builder b = Config.builder();
    if (file != null) {
      read(file).forEach(b::set);
    }
    overrides.forEach(b::set); // set later, so they win
    return b.build();
  }

  static Map<String, String> read(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      throw new IOException("configuration file " + file + " is a directory");
    }
    try {
      return file.getFileName().toString().endsWith(".xml") ? readXml(file) : readProperties(file);
    } catch (NoSuchFileException e) {
      throw new IOException("configuration file " + file + " does not exist", e);
    }
  }

  private static Map<String, String> readProperties(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    } catch (IllegalArgumentException e) {
      throw new IOException("configuration file " + file + " is not a valid properties file", e);
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String name : p.stringPropertyNames()) {
      out.put(name, p.getProperty(name).trim());
    }
    return out;
  }

  private static Map<String, String> readXml(Path file) throws IOException {
    Document doc;
    try (InputStream in = Files.newInputStream(file)) {
      doc = parser().parse(in);
    } catch (SAXParseException e) {
      throw new IOException(
          "configuration file " + file + " line " + e.getLineNumber() + ": " + e.getMessage(), e);
    } catch (SAXException e) {
      throw new IOException("configuration file " + file + ": " + e.getMessage(), e);
    }
    Element root = doc.getDocumentElement();
    if (!root.getTagName().equals("configuration")) {
      throw new IOException(
          "configuration file "
              + file
              + ": the root element must be <configuration>, not <"
              + root.getTagName()
              + ">");
    }
    Map<String, String> out = new LinkedHashMap<>();
    NodeList props = root.getChildNodes();
    for (int i = 0; i < props.getLength(); i++) {
      if (props.item(i) instanceof Element prop && prop.getTagName().equals("property")) {
        String name = child(prop, "name");
        String value = child(prop, "value");
        if (name == null || name.isEmpty()) {
          throw new IOException(
              "configuration file " + file + ": a <property> without a <name> (entry " + i + ")");
        }
        out.put(name, value == null ? "" : value);
      }
    }
    return out;
  }

  private static String child(Element prop, String tag) {
    for (Node n = prop.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(tag)) {
        return e.getTextContent().trim();
      }
    }
    return null;
  }

  private static DocumentBuilder parser() throws IOException {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      f.setXIncludeAware(false);
      f.setExpandEntityReferences(false);
      DocumentBuilder b = f.newDocumentBuilder();
      b.setErrorHandler(
          new org.xml.sax.ErrorHandler() {
            @Override
            public void warning(SAXParseException e) {}

            @Override
            public void error(SAXParseException e) throws SAXException {
              throw e;
            }

            @Override
            public void fatalError(SAXParseException e) throws SAXException {
              throw e;
            }
          });
      return b;
    } catch (ParserConfigurationException e) {
      throw new IOException("no secure XML parser available", e);
    }
  }
}
