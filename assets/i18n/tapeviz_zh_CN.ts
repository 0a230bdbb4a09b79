<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
  <context>
    <name>CodeExportDialog</name>
    <message>
      <location filename="../../tapeviz/ui/window/code_export_dialog.py" line="32" />
      <source>Export code</source>
      <translation>导出代码</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_export_dialog.py" line="52" />
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_export_dialog.py" line="54" />
      <source>Save…</source>
      <translation>保存…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_export_dialog.py" line="88" />
      <source>Save script</source>
      <translation>保存脚本</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_export_dialog.py" line="89" />
      <source>Python (*.py)</source>
      <translation>Python 文件 (*.py)</translation>
    </message>
  </context>
  <context>
    <name>CodePane</name>
    <message>
      <location filename="../../tapeviz/ui/window/code_pane.py" line="25" />
      <source>Expression</source>
      <translation>表达式</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_pane.py" line="26" />
      <source>Script</source>
      <translation>脚本</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_pane.py" line="27" />
      <source>Run</source>
      <translation>运行</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_pane.py" line="29" />
      <source>Run (Ctrl+Enter)</source>
      <translation>运行(Ctrl+Enter)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_pane.py" line="30" />
      <source>Stop</source>
      <translation>停止</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_pane.py" line="43" />
      <source>Mode:</source>
      <translation>模式:</translation>
    </message>
  </context>
  <context>
    <name>DialogsController</name>
    <message>
      <location filename="../../tapeviz/ui/window/dialogs.py" line="82" />
      <source>&amp;Language</source>
      <translation>语言(&amp;L)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/dialogs.py" line="86" />
      <source>System language</source>
      <translation>跟随系统</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/dialogs.py" line="146" />
      <source>Language changed.</source>
      <translation>界面语言已切换。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/dialogs.py" line="159" />
      <source>Preferences saved.</source>
      <translation>首选项已保存。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/dialogs.py" line="190" />
      <source>About tapeviz</source>
      <translation>关于 tapeviz</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/dialogs.py" line="192" />
      <source>Automatic differentiation and optimization, made visible.</source>
      <translation>让自动微分与优化过程看得见。</translation>
    </message>
  </context>
  <context>
    <name>ErrorText</name>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="16" />
      <source>Syntax error</source>
      <translation>语法错误</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="17" />
      <source>Unknown name</source>
      <translation>未知名称</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="18" />
      <source>Type error</source>
      <translation>类型错误</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="19" />
      <source>Value error</source>
      <translation>取值错误</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="20" />
      <source>Tensor error</source>
      <translation>张量错误</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="21" />
      <source>Limit reached</source>
      <translation>达到限制</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="22" />
      <source>Not available in tapeviz</source>
      <translation>tapeviz 中不可用</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="23" />
      <source>Stopped</source>
      <translation>已停止</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="24" />
      <source>Error</source>
      <translation>错误</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="25" />
      <source>The worker crashed</source>
      <translation>工作进程崩溃</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="26" />
      <source>Internal error</source>
      <translation>内部错误</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="29" />
      <source>raise the limit in Preferences if this is intended</source>
      <translation>如果确实需要,请在“首选项”中提高限制</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="30" />
      <location filename="../../tapeviz/ui/window/error_text.py" line="42" />
      <source>did you mean '%1'?</source>
      <translation>你是不是想写 '%1'?</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="50" />
      <source>line %1</source>
      <translation>第 %1 行</translation>
    </message>
  </context>
  <context>
    <name>ExpressionPanel</name>
    <message>
      <location filename="../../tapeviz/ui/graph/expression_panel.py" line="49" />
      <source>a function of the variables, e.g. a*x**2 + b*x + c</source>
      <translation>关于变量的函数,例如 a*x**2 + b*x + c</translation>
    </message>
  </context>
  <context>
    <name>FigurePanel</name>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="39" />
      <source>PNG…</source>
      <translation>导出 PNG…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="41" />
      <source>Export this figure as a PNG image</source>
      <translation>将此图导出为 PNG 图像</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="42" />
      <source>SVG…</source>
      <translation>导出 SVG…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="44" />
      <source>Export this figure as an SVG drawing</source>
      <translation>将此图导出为 SVG 矢量图</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="60" />
      <source>Figure %1</source>
      <translation>图 %1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="64" />
      <source>(savefig: %1)</source>
      <translation>(脚本中 savefig 保存为:%1)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="66" />
      <source>(%1 of a scatter's %2 points drawn)</source>
      <translation>(散点图的 %2 个点中绘制了 %1 个)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="89" />
      <source>PNG image (*.png)</source>
      <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="89" />
      <source>SVG drawing (*.svg)</source>
      <translation>SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="90" />
      <location filename="../../tapeviz/ui/figures/panel.py" line="97" />
      <source>Export figure</source>
      <translation>导出图表</translation>
    </message>
  </context>
  <context>
    <name>GradCheckPanel</name>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="34" />
      <source>Check gradients</source>
      <translation>检验梯度</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="41" />
      <source>source</source>
      <translation>源变量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="42" />
      <source>tape</source>
      <translation>磁带</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="43" />
      <source>finite differences</source>
      <translation>有限差分</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="44" />
      <source>rel. error</source>
      <translation>相对误差</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="53" />
      <source>relative error</source>
      <translation>相对误差</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="84" />
      <source>Nothing to check: this tape has no gradient yet.</source>
      <translation>无可检验:这条磁带还没有梯度。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="87" />
      <source>Checking…</source>
      <translation>正在检验…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="104" />
      <source>agree</source>
      <translation>一致</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="104" />
      <source>DISAGREE</source>
      <translation>不一致</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="106" />
      <source>Tape and finite differences {v} (worst {e:.1e}).</source>
      <translation>磁带与有限差分{v}(最大误差 {e:.1e})。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="113" />
      <source>The check failed: </source>
      <translation>检验失败:</translation>
    </message>
  </context>
  <context>
    <name>GraphMenu</name>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="23" />
      <source>Layered (fast)</source>
      <translation>分层布局(快速)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="24" />
      <source>Sugiyama (grandalf, slow on big tapes)</source>
      <translation>Sugiyama 布局(grandalf,大磁带较慢)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="25" />
      <source>Graphviz dot</source>
      <translation>Graphviz dot 布局</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="28" />
      <source>PNG image (*.png)</source>
      <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="29" />
      <source>SVG drawing (*.svg)</source>
      <translation>SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="30" />
      <source>Graphviz DOT (*.dot)</source>
      <translation>Graphviz DOT 文件 (*.dot)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="46" />
      <source>&amp;Fit graph</source>
      <translation>计算图适应窗口(&amp;F)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="49" />
      <source>Show the &amp;whole graph</source>
      <translation>显示整个计算图(&amp;W)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="53" />
      <source>as &amp;PNG…</source>
      <translation>PNG 图像(&amp;P)…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="54" />
      <source>as &amp;SVG…</source>
      <translation>SVG 矢量图(&amp;S)…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="55" />
      <source>as &amp;DOT (graphviz)…</source>
      <translation>DOT 文件(graphviz)(&amp;D)…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="72" />
      <source>Install graphviz to use dot.</source>
      <translation>安装 graphviz 后才能使用 dot 布局。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="78" />
      <source>Fold &amp;constants into the ops</source>
      <translation>把常量并入运算节点(&amp;C)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="79" />
      <source>&amp;Hide ops no source reaches</source>
      <translation>隐藏与源变量无关的运算(&amp;H)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="82" />
      <source>Show local &amp;derivatives on the edges</source>
      <translation>在边上显示局部导数(&amp;D)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="85" />
      <source>Frame nested &amp;tapes</source>
      <translation>框出嵌套的磁带(&amp;T)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="102" />
      <source>&amp;Graph</source>
      <translation>计算图(&amp;G)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="106" />
      <source>&amp;Export graph</source>
      <translation>导出计算图(&amp;E)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="110" />
      <source>&amp;Layout</source>
      <translation>布局(&amp;L)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="141" />
      <source>Graphviz dot is not installed; layout unchanged.</source>
      <translation>未安装 Graphviz dot,布局保持不变。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="181" />
      <source>There is no graph to export yet: run some code.</source>
      <translation>还没有可导出的计算图:请先运行代码。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="186" />
      <source>Export graph</source>
      <translation>导出计算图</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="202" />
      <source>Cannot write %1: %2</source>
      <translation>无法写入 %1:%2</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="205" />
      <source>Graph exported to %1</source>
      <translation>计算图已导出到 %1</translation>
    </message>
  </context>
  <context>
    <name>LowerTabs</name>
    <message>
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="50" />
      <source>Backward pass</source>
      <translation>反向传播</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="51" />
      <source>Optimization</source>
      <translation>优化过程</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="53" />
      <source>Timeline</source>
      <translation>时间线</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="54" />
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="138" />
      <source>Plots</source>
      <translation>图表</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="109" />
      <source>The last run recorded no loop: run a script whose loop records a tape per step</source>
      <translation>上次运行没有记录循环:请运行每一步都记录一条磁带的循环脚本</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="138" />
      <source>Plots (%1)</source>
      <translation>图表 (%1)</translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="101" />
      <source>Ready</source>
      <translation>就绪</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="154" />
      <source>Code</source>
      <translation>代码</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="156" />
      <source>Variables</source>
      <translation>变量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="158" />
      <source>Output</source>
      <translation>输出</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="159" />
      <source>Tapes</source>
      <translation>磁带</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="185" />
      <source>&amp;File</source>
      <translation>文件(&amp;F)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="186" />
      <source>&amp;Open session…</source>
      <translation>打开会话…(&amp;O)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="187" />
      <source>&amp;Save session</source>
      <translation>保存会话(&amp;S)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="188" />
      <source>Save session &amp;as…</source>
      <translation>会话另存为…(&amp;A)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="189" />
      <source>&amp;Export code (TensorFlow, PyTorch, JAX)…</source>
      <translation>导出代码(TensorFlow、PyTorch、JAX)…(&amp;E)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="191" />
      <source>Open &amp;recent</source>
      <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="195" />
      <source>&amp;Preferences…</source>
      <translation>首选项…(&amp;P)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="197" />
      <source>&amp;Quit</source>
      <translation>退出(&amp;Q)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="198" />
      <location filename="../../tapeviz/ui/window/main_window.py" line="199" />
      <source>&amp;Run</source>
      <translation>运行(&amp;R)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="200" />
      <source>&amp;Stop</source>
      <translation>停止(&amp;S)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="202" />
      <source>&amp;Play / pause</source>
      <translation>播放/暂停(&amp;P)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="203" />
      <source>Step &amp;forward</source>
      <translation>前进一步(&amp;F)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="204" />
      <source>Step &amp;back</source>
      <translation>后退一步(&amp;B)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="205" />
      <source>Back to the s&amp;tart</source>
      <translation>回到开始(&amp;T)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="208" />
      <source>&amp;View</source>
      <translation>视图(&amp;V)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="212" />
      <source>&amp;Backward pass</source>
      <translation>反向传播(&amp;B)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="213" />
      <source>&amp;Optimization</source>
      <translation>优化过程(&amp;O)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="214" />
      <source>&amp;Timeline</source>
      <translation>时间线(&amp;T)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="215" />
      <source>P&amp;lots</source>
      <translation>图表(&amp;L)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="220" />
      <source>&amp;Presets</source>
      <translation>预设(&amp;P)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="228" />
      <source>&amp;Help</source>
      <translation>帮助(&amp;H)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="229" />
      <source>&amp;TensorFlow in tapeviz…</source>
      <translation>tapeviz 中的 TensorFlow(&amp;T)…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="230" />
      <source>&amp;About tapeviz</source>
      <translation>关于 tapeviz(&amp;A)</translation>
    </message>
  </context>
  <context>
    <name>NonFinite</name>
    <message>
      <location filename="../../tapeviz/ui/graph/nonfinite_text.py" line="15" />
      <source>the logarithm of a negative number (%3) is not a real number</source>
      <translation>负数(%3)的对数不是实数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/nonfinite_text.py" line="18" />
      <source>the logarithm of 0 is −∞</source>
      <translation>0 的对数是 −∞</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/nonfinite_text.py" line="19" />
      <source>the square root of a negative number (%3) is not a real number</source>
      <translation>负数(%3)的平方根不是实数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/nonfinite_text.py" line="22" />
      <source>a division by zero</source>
      <translation>除以零</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/nonfinite_text.py" line="23" />
      <source>0 divided by 0 has no value</source>
      <translation>0 除以 0 没有值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/nonfinite_text.py" line="24" />
      <source>a negative number (%3) to a fractional power is not a real number</source>
      <translation>负数(%3)的分数次幂不是实数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/nonfinite_text.py" line="27" />
      <source>the result is larger than %4, the largest %5 number</source>
      <translation>结果大于 %5 能表示的最大数 %4</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/nonfinite_text.py" line="28" />
      <source>%6 has no value for these inputs</source>
      <translation>%6 对这些输入没有值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/nonfinite_text.py" line="29" />
      <source>its input %3 already is</source>
      <translation>它的输入 %3 已经如此</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/nonfinite_text.py" line="30" />
      <source>it is so before the tape records anything</source>
      <translation>计算带记录任何运算之前它就已如此</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/nonfinite_text.py" line="44" />
      <source>%1 is %2</source>
      <translation>%1 为 %2</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/nonfinite_text.py" line="45" />
      <source>%1 because %2</source>
      <translation>%1,因为%2</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/nonfinite_text.py" line="46" />
      <source>%1: %2</source>
      <translation>%1:%2</translation>
    </message>
  </context>
  <context>
    <name>OptimizationStudio</name>
    <message>
      <location filename="../../tapeviz/ui/plots/export.py" line="220" />
      <source>Exporting {name}… {percent} %</source>
      <translation>正在导出 {name}… {percent} %</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/export.py" line="252" />
      <location filename="../../tapeviz/ui/studio/studio.py" line="301" />
      <location filename="../../tapeviz/ui/timeline/export.py" line="47" />
      <source>Export failed: {error}</source>
      <translation>导出失败:{error}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/export.py" line="265" />
      <location filename="../../tapeviz/ui/studio/export.py" line="95" />
      <location filename="../../tapeviz/ui/timeline/export.py" line="51" />
      <source>Exported {name}.</source>
      <translation>已导出 {name}。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="190" />
      <source>step</source>
      <translation>步</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="293" />
      <location filename="../../tapeviz/ui/timeline/plots.py" line="40" />
      <source>Loss</source>
      <translation>损失</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="294" />
      <location filename="../../tapeviz/ui/plots/surface_plot.py" line="271" />
      <source>loss f(x)</source>
      <translation>损失 f(x)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="299" />
      <location filename="../../tapeviz/ui/timeline/plots.py" line="46" />
      <source>Parameters</source>
      <translation>参数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="300" />
      <location filename="../../tapeviz/ui/timeline/plots.py" line="47" />
      <source>value</source>
      <translation>值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="305" />
      <location filename="../../tapeviz/ui/timeline/plots.py" line="52" />
      <source>Gradient norm</source>
      <translation>梯度范数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="306" />
      <location filename="../../tapeviz/ui/timeline/plots.py" line="53" />
      <source>‖∇f‖</source>
      <translation>‖∇f‖</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/surface_plot.py" line="161" />
      <source>Loss surface (click to start)</source>
      <translation>损失曲面(点击设为起点)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/surface_plot.py" line="263" />
      <source>Loss curve and tangent (slope = gradient)</source>
      <translation>损失曲线与切线(斜率 = 梯度)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/export.py" line="72" />
      <source>Nothing to export yet: the runs are still being computed.</source>
      <translation>暂无可导出的内容:运行仍在计算中。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/export.py" line="79" />
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="158" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="75" />
      <location filename="../../tapeviz/ui/timeline/export.py" line="38" />
      <source>Export</source>
      <translation>导出</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/jobs.py" line="133" />
      <source>Computing %n run(s)…</source>
      <translation>正在计算 %n 个运行…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/jobs.py" line="154" />
      <source>Computation cancelled.</source>
      <translation>计算已取消。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/jobs.py" line="201" />
      <source>The loss cannot be optimized: {message}</source>
      <translation>无法优化该损失:{message}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="119" />
      <source>Add a run to the race (up to six)</source>
      <translation>为竞赛添加一个运行(最多六个)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="123" />
      <source>Remove the selected run</source>
      <translation>删除选中的运行</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="129" />
      <source>Learning rate on a log scale</source>
      <translation>对数刻度上的学习率</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="136" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="62" />
      <source> steps/s</source>
      <translation> 步/秒</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="138" />
      <source>Log-scale loss axis</source>
      <translation>损失轴使用对数刻度</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="146" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="50" />
      <source>Reset</source>
      <translation>重置</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="149" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="54" />
      <source>Step</source>
      <translation>单步</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="152" />
      <location filename="../../tapeviz/ui/studio/studio.py" line="250" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="52" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="186" />
      <source>Play</source>
      <translation>播放</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="162" />
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="179" />
      <source>Run</source>
      <translation>运行</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="184" />
      <source>Optimizer</source>
      <translation>优化器</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="188" />
      <source>Steps</source>
      <translation>步数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="189" />
      <source>Speed</source>
      <translation>速度</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="194" />
      <source>Slice</source>
      <translation>切片</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="213" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="110" />
      <source>Animation as GIF…</source>
      <translation>动画导出为 GIF…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="214" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="111" />
      <source>Animation as MP4…</source>
      <translation>动画导出为 MP4…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="215" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="112" />
      <source>Plots as PNG…</source>
      <translation>图表导出为 PNG…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="216" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="113" />
      <source>Plots as SVG…</source>
      <translation>图表导出为 SVG…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="217" />
      <source>Histories as CSV…</source>
      <translation>历史记录导出为 CSV…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="358" />
      <location filename="../../tapeviz/ui/timeline/panel.py" line="163" />
      <source>step {k} of {n}</source>
      <translation>第 {k} 步,共 {n} 步</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/studio.py" line="240" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="185" />
      <source>Pause</source>
      <translation>暂停</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/studio.py" line="377" />
      <source>Click-to-start needs exactly two scalar parameters.</source>
      <translation>点击设置起点需要恰好两个标量参数。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/studio.py" line="385" />
      <source>New start ({x}, {y}): computing…</source>
      <translation>新起点 ({x}, {y}):正在计算…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/text.py" line="12" />
      <source>batched replay</source>
      <translation>批量回放</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/text.py" line="13" />
      <source>replay</source>
      <translation>回放</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/text.py" line="14" />
      <source>a fresh tape every step</source>
      <translation>每步一条新磁带</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/text.py" line="23" />
      <source>%n run(s) of {steps} steps computed in {seconds} s ({method}).</source>
      <translation>已计算 %n 个运行,每个 {steps} 步,用时 {seconds} 秒({method})。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/text.py" line="31" />
      <source>The loss axis is linear: log scale needs positive losses.</source>
      <translation>损失轴为线性刻度:对数刻度需要正的损失值。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/text.py" line="48" />
      <source>Run {index} ({title}): {explanation}</source>
      <translation>运行 {index}({title}):{explanation}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/divergence.py" line="36" />
      <source>Diverged at step {step}: the loss grew to {value}, {ratio}× its start value {start}.</source>
      <translation>在第 {step} 步发散:损失增长到 {value},是初始值 {start} 的 {ratio} 倍。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/divergence.py" line="40" />
      <source>Diverged at step {step}: the loss fell to {value}, {ratio}× its start value; the function is unbounded below, so the descent never ends.</source>
      <translation>在第 {step} 步发散:损失降到 {value},是初始值的 {ratio} 倍;该函数无下界,下降永不停止。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/divergence.py" line="45" />
      <source>Diverged at step {step}: the loss became {value}.</source>
      <translation>在第 {step} 步发散:损失变为 {value}。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/divergence.py" line="48" />
      <source>Diverged at step {step}: the parameter {name} became {value}.</source>
      <translation>在第 {step} 步发散:参数 {name} 变为 {value}。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/divergence.py" line="53" />
      <source>lr {lr} &gt; 2/λmax = {limit}: gradient descent diverges; normalize the inputs or lower lr below {limit}.</source>
      <translation>lr {lr} &gt; 2/λmax = {limit}:梯度下降发散;请归一化输入,或把 lr 降到 {limit} 以下。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/divergence.py" line="58" />
      <source>lr {lr} &gt; 2(1 + β)/λmax = {limit}: gradient descent with momentum diverges; normalize the inputs or lower lr below {limit}.</source>
      <translation>lr {lr} &gt; 2(1 + β)/λmax = {limit}:带动量的梯度下降发散;请归一化输入,或把 lr 降到 {limit} 以下。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/divergence.py" line="63" />
      <source>lr {lr} &gt; 2(1 + β)/((1 + 2β)·λmax) = {limit}: Nesterov momentum diverges; normalize the inputs or lower lr below {limit}.</source>
      <translation>lr {lr} &gt; 2(1 + β)/((1 + 2β)·λmax) = {limit}:Nesterov 动量发散;请归一化输入,或把 lr 降到 {limit} 以下。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/divergence.py" line="68" />
      <source>The curvature at the start is λmax = {lam}, so steps of lr {lr} are stable there only below lr = {limit}; the steps overshoot, lower the learning rate.</source>
      <translation>起点处的曲率为 λmax = {lam},因此在那里只有 lr &lt; {limit} 的步长才稳定;当前 lr {lr} 的步子冲过了头,请降低学习率。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/divergence.py" line="73" />
      <source>The steps overshoot and grow: lower the learning rate ({lr}) or start closer to a minimum.</source>
      <translation>步子冲过了头并不断变大:请降低学习率({lr}),或从更靠近极小值的位置出发。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/optimizer_config.py" line="46" />
      <source>learning rate</source>
      <translation>学习率</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/optimizer_config.py" line="52" />
      <source>momentum β</source>
      <translation>动量 β</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/optimizer_config.py" line="68" />
      <source>momentum</source>
      <translation>动量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/optimizer_config.py" line="76" />
      <source>initial accumulator</source>
      <translation>初始累加值</translation>
    </message>
  </context>
  <context>
    <name>PlotsPanel</name>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="117" />
      <source>Figures a script draws with matplotlib appear here: import matplotlib.pyplot as plt, then plt.plot(...).</source>
      <translation>脚本用 matplotlib 绘制的图表显示在这里:先 import matplotlib.pyplot as plt,再调用 plt.plot(...)。</translation>
    </message>
  </context>
  <context>
    <name>PreferencesDialog</name>
    <message>
      <location filename="../../tapeviz/ui/window/preferences.py" line="57" />
      <source>Preferences</source>
      <translation>首选项</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/preferences.py" line="62" />
      <source>Light</source>
      <translation>浅色</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/preferences.py" line="63" />
      <source>Dark</source>
      <translation>深色</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/preferences.py" line="72" />
      <source>System language</source>
      <translation>跟随系统</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/preferences.py" line="80" />
      <source> s</source>
      <translation> 秒</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/preferences.py" line="94" />
      <source>Theme</source>
      <translation>主题</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/preferences.py" line="95" />
      <source>Text size</source>
      <translation>文字大小</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/preferences.py" line="96" />
      <source>Language</source>
      <translation>语言</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/preferences.py" line="97" />
      <source>Time limit of a script</source>
      <translation>脚本时间上限</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/preferences.py" line="98" />
      <source>Step limit of a script</source>
      <translation>脚本步数上限</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/preferences.py" line="99" />
      <source>Memory limit of a script</source>
      <translation>脚本内存上限</translation>
    </message>
  </context>
  <context>
    <name>PresenterController</name>
    <message>
      <location filename="../../tapeviz/ui/window/presenter.py" line="129" />
      <source>Full &amp;screen</source>
      <translation>全屏(&amp;S)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/presenter.py" line="131" />
      <source>&amp;Larger text</source>
      <translation>放大文字(&amp;L)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/presenter.py" line="133" />
      <source>&amp;Smaller text</source>
      <translation>缩小文字(&amp;S)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/presenter.py" line="135" />
      <source>&amp;Reset text size</source>
      <translation>恢复文字大小(&amp;R)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/presenter.py" line="139" />
      <source>&amp;Dark theme</source>
      <translation>深色主题(&amp;D)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/presenter.py" line="143" />
      <source>&amp;Clean mode (hide the editor)</source>
      <translation>简洁模式(隐藏编辑器)(&amp;C)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/presenter.py" line="175" />
      <source>Text size %1 %</source>
      <translation>文字大小 %1 %</translation>
    </message>
  </context>
  <context>
    <name>RunController</name>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="126" />
      <source>Type a function or paste a script to run.</source>
      <translation>请输入函数或粘贴脚本再运行。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="132" />
      <source>Running…</source>
      <translation>正在运行…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="141" />
      <source>Stopping…</source>
      <translation>正在停止…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="151" />
      <source>Internal error: %1</source>
      <translation>内部错误:%1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="170" />
      <source>Ran in %1 ms; %2 tape(s) recorded.</source>
      <translation>运行用时 %1 毫秒;记录了 %2 条磁带。</translation>
    </message>
  </context>
  <context>
    <name>SessionController</name>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="51" />
      <source>Cannot open %1: %2</source>
      <translation>无法打开 %1:%2</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="65" />
      <source>Cannot save %1: %2</source>
      <translation>无法保存 %1:%2</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="71" />
      <source>Saved %1</source>
      <translation>已保存 %1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="76" />
      <source>Open session</source>
      <translation>打开会话</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="91" />
      <source>Save session</source>
      <translation>保存会话</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="119" />
      <source>No recent sessions</source>
      <translation>没有最近的会话</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="133" />
      <source>Autosave failed: %1</source>
      <translation>自动保存失败:%1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="149" />
      <source>Restore your work?</source>
      <translation>恢复你的工作?</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="150" />
      <source>tapeviz did not close properly last time. Restore the work it saved automatically?</source>
      <translation>tapeviz 上次没有正常关闭。要恢复自动保存的工作吗?</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="157" />
      <source>Restored the autosaved work.</source>
      <translation>已恢复自动保存的工作。</translation>
    </message>
  </context>
  <context>
    <name>StepperPanel</name>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="33" />
      <source>Backward pass</source>
      <translation>反向传播</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="34" />
      <source>Forward pass</source>
      <translation>前向计算</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="62" />
      <source>Each gradient() call is its own backward pass: pick the one to step.</source>
      <translation>每次 gradient() 调用都是一次独立的反向传播:选择要逐步查看的那一次。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="65" />
      <source>Reset</source>
      <translation>重置</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="65" />
      <source>Reset (Home)</source>
      <translation>重置(Home)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="67" />
      <source>Step back (←)</source>
      <translation>上一步(←)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="68" />
      <source>Step (→)</source>
      <translation>下一步(→)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="70" />
      <location filename="../../tapeviz/ui/stepper/panel.py" line="287" />
      <source>Play</source>
      <translation>播放</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="70" />
      <source>Play/pause (Space)</source>
      <translation>播放/暂停(空格)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="79" />
      <source> steps/s</source>
      <translation> 步/秒</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="80" />
      <source>Predict, then reveal</source>
      <translation>先预测,再揭晓</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="83" />
      <source>Reveal</source>
      <translation>揭晓</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="83" />
      <source>Reveal this step's gradients (R)</source>
      <translation>揭晓这一步的梯度(R)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="131" />
      <source>Chain rule</source>
      <translation>链式法则</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="132" />
      <source>Gradient check</source>
      <translation>梯度检验</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="287" />
      <source>Pause</source>
      <translation>暂停</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="402" />
      <source>Start: the target's gradient is 1. Press → to step back through the ops.</source>
      <translation>开始:目标的梯度为 1。按 → 沿运算逐步反向传播。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="422" />
      <source>Start: only the inputs have values. Press → to compute the ops left to right.</source>
      <translation>开始:只有输入有值。按 → 从左到右逐个计算运算。</translation>
    </message>
  </context>
  <context>
    <name>TapeList</name>
    <message>
      <location filename="../../tapeviz/ui/window/tape_list.py" line="59" />
      <source>No gradient() call</source>
      <translation>没有 gradient() 调用</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/tape_list.py" line="76" />
      <source>%1 — %2 ops</source>
      <translation>%1 — %2 个运算</translation>
    </message>
  </context>
  <context>
    <name>TfHelpDialog</name>
    <message>
      <location filename="../../tapeviz/ui/window/tf_help.py" line="53" />
      <source>TensorFlow in tapeviz</source>
      <translation>tapeviz 中的 TensorFlow</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/tf_help.py" line="56" />
      <source>Scripts start with tf and np already imported. Import matplotlib.pyplot as plt for plots (the Plots tab). These are the names a script can use; names in “not available” exist so code reads on, and say why when called.</source>
      <translation>脚本开始时已经导入了 tf 和 np。要绘图(显示在“图表”标签页),请 import matplotlib.pyplot as plt。下面是脚本可以使用的名称;“不可用”中的名称存在是为了让代码能继续读下去,调用时会说明原因。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/tf_help.py" line="63" />
      <source>Filter, e.g. reduce or Dense</source>
      <translation>筛选,例如 reduce 或 Dense</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/tf_help.py" line="85" />
      <source>not available</source>
      <translation>不可用</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/tf_help.py" line="94" />
      <source>No name matches.</source>
      <translation>没有匹配的名称。</translation>
    </message>
  </context>
  <context>
    <name>Timeline</name>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="51" />
      <source>Back</source>
      <translation>上一步</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="55" />
      <source>Back to the first step (Home)</source>
      <translation>回到第一步(Home)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="56" />
      <source>One step back (←)</source>
      <translation>后退一步(←)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="57" />
      <source>Play or pause (Space)</source>
      <translation>播放或暂停(空格)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="58" />
      <source>One step forward (→)</source>
      <translation>前进一步(→)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="64" />
      <source>Log scale</source>
      <translation>对数刻度</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="66" />
      <source>Loss and gradient norm on a log axis</source>
      <translation>损失和梯度范数使用对数坐标轴</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="68" />
      <source>Tensors: norm</source>
      <translation>张量:范数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="69" />
      <source>Tensors: element</source>
      <translation>张量:元素</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="73" />
      <source>Which element of each tensor (flattened)</source>
      <translation>每个张量(展平后)的第几个元素</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="114" />
      <source>Series as CSV…</source>
      <translation>序列导出为 CSV…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/output_link.py" line="72" />
      <source>Go to step {k}</source>
      <translation>转到第 {k} 步</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/plots.py" line="41" />
      <source>loss</source>
      <translation>损失</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/text.py" line="22" />
      <source>Loop {n}: {steps} steps (tapes {first}–{last})</source>
      <translation>循环 {n}:{steps} 步(磁带 {first}–{last})</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/text.py" line="29" />
      <source>{title}; each step records {period} tape(s).</source>
      <translation>{title};每步记录 {period} 条磁带。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/timeline/divergence.py" line="38" />
      <source>{name} becomes {value} at step {step}.</source>
      <translation>{name} 在第 {step} 步变为 {value}。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/timeline/divergence.py" line="39" />
      <source>{name} becomes {value} at step {step} and {then} at step {later}.</source>
      <translation>{name} 在第 {step} 步变为 {value},在第 {later} 步变为 {then}。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/timeline/divergence.py" line="42" />
      <source>The updates do not follow plain gradient descent or momentum, so no learning-rate bound applies; lower the learning rate or normalize the inputs.</source>
      <translation>这些更新既不符合普通梯度下降也不符合动量法,因此没有适用的学习率上界;请降低学习率或对输入做归一化。</translation>
    </message>
  </context>
  <context>
    <name>TimelineLink</name>
    <message>
      <location filename="../../tapeviz/ui/window/timeline_link.py" line="74" />
      <source>Internal error: %1</source>
      <translation>内部错误:%1</translation>
    </message>
  </context>
  <context>
    <name>TooLargeBanner</name>
    <message>
      <location filename="../../tapeviz/ui/graph/scene.py" line="146" />
      <source>Show folded view</source>
      <translation>显示折叠视图</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/scene.py" line="160" />
      <source>This tape recorded {n} ops: too many to draw in full. The folded view shows the first and last {k} ops and one summary node for the middle.</source>
      <translation>这条磁带记录了 {n} 个运算,太多,无法完整绘制。折叠视图显示前后各 {k} 个运算,中间用一个汇总节点表示。</translation>
    </message>
  </context>
  <context>
    <name>VariablesTable</name>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="24" />
      <source>trainable</source>
      <translation>可训练</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="25" />
      <source>constant</source>
      <translation>常量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="26" />
      <source>watched</source>
      <translation>被监视</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="39" />
      <source>Name</source>
      <translation>名称</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="39" />
      <source>Value</source>
      <translation>值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="39" />
      <source>Kind</source>
      <translation>类型</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="46" />
      <source>Add variable</source>
      <translation>添加变量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="48" />
      <source>Remove</source>
      <translation>删除</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="132" />
      <source>Variable row %1: %2</source>
      <translation>变量第 %1 行:%2</translation>
    </message>
  </context>
  <context>
    <name>presets</name>
    <message>
      <source>Start here</source>
      <translation>从这里开始</translation>
    </message>
    <message>
      <source>Seed: GradientTape basics</source>
      <translation>教程:GradientTape 基础</translation>
    </message>
    <message>
      <source>Seed: gradients and optimizers</source>
      <translation>教程:梯度与优化器</translation>
    </message>
    <message>
      <source>micrograd (Karpathy)</source>
      <translation>micrograd(Karpathy)</translation>
    </message>
    <message>
      <source>Optimizer surfaces</source>
      <translation>优化器曲面</translation>
    </message>
    <message>
      <source>f = a·x² + b·x + c</source>
      <translation>f = a·x² + b·x + c</translation>
    </message>
    <message>
      <source>The seed tutorial's quadratic at x = 0: df/dx = 2a·x + b = -2, df/da = x² = 0, df/db = x = 0; c is a plain constant, so it gets no gradient. Edit the function and watch the graph follow.</source>
      <translation>教程中的二次函数,在 x = 0 处:df/dx = 2a·x + b = -2,df/da = x² = 0,df/db = x = 0;c 是普通常量,所以没有梯度。修改函数,计算图会随之更新。</translation>
    </message>
    <message>
      <source>2.1 Constants are not watched by default</source>
      <translation>2.1 常量默认不被监视</translation>
    </message>
    <message>
      <source>What TensorFlow prints:</source>
      <translation>TensorFlow 打印的内容:</translation>
    </message>
    <message>
      <source>2.1 Constants: tape.watch(x)</source>
      <translation>2.1 常量:tape.watch(x)</translation>
    </message>
    <message>
      <source>TensorFlow prints nothing here: look at the graph and the variables.</source>
      <translation>TensorFlow 在这里不打印任何内容:请看计算图和变量。</translation>
    </message>
    <message>
      <source>2.2.1 Trainable variables are watched</source>
      <translation>2.2.1 可训练变量会被自动监视</translation>
    </message>
    <message>
      <source>2.2.2 watch_accessed_variables=False: dn/dm</source>
      <translation>2.2.2 只监视手动指定的变量(watch_accessed_variables=False):dn/dm</translation>
    </message>
    <message>
      <source>2.2.2 watch_accessed_variables=False: dy/dx</source>
      <translation>2.2.2 只监视手动指定的变量(watch_accessed_variables=False):dy/dx</translation>
    </message>
    <message>
      <source>2.2.3 Higher-order derivatives: nested tapes</source>
      <translation>2.2.3 高阶导数:嵌套磁带</translation>
    </message>
    <message>
      <source>2.2.3 A non-persistent tape gives one gradient</source>
      <translation>2.2.3 非持久磁带只能求一次梯度</translation>
    </message>
    <message>
      <source>TensorFlow raises RuntimeError here: that error is the lesson.</source>
      <translation>TensorFlow 在这里抛出 RuntimeError:这个错误正是本节要讲的内容。</translation>
    </message>
    <message>
      <source>2.2.4 persistent=True</source>
      <translation>2.2.4 persistent=True(持久磁带)</translation>
    </message>
    <message>
      <source>2.2.5 stop_recording()</source>
      <translation>2.2.5 stop_recording()(暂停记录)</translation>
    </message>
    <message>
      <source>2.2.6 Python control flow</source>
      <translation>2.2.6 Python 控制流</translation>
    </message>
    <message>
      <source>Seed: linear regression on normalized data</source>
      <translation>教程:归一化数据上的线性回归</translation>
    </message>
    <message>
      <source>The same regression with X and y min-max scaled to [0, 1]: now lr 5e-4 is stable and 10,000 epochs reach a = 0.97637, b = 0.057565 (least squares: 0.981818, 0.054545).</source>
      <translation>同一个回归,但 X 和 y 都用最小-最大缩放到 [0, 1]:此时 lr 5e-4 是稳定的,10,000 轮后 a = 0.97637,b = 0.057565(最小二乘解:0.981818,0.054545)。</translation>
    </message>
    <message>
      <source>Seed: linear regression on raw years (diverges)</source>
      <translation>教程:用原始年份做线性回归(发散)</translation>
    </message>
    <message>
      <source>The seed's regression with X = 2013…2017 unscaled: the curvature λmax ≈ 4·10⁷ makes lr 5e-4 far larger than 2/λmax, so a flips sign and grows ~2·10⁴× per epoch. The studio stops the run at step 1, where the loss has already grown 4·10⁸×; the history goes on as TensorFlow's does (scrub past the stop): the loss is inf at epoch 4 and everything is nan by epoch 9.</source>
      <translation>教程中的回归,X = 2013…2017 未缩放:曲率 λmax ≈ 4·10⁷,使 lr 5e-4 远大于 2/λmax,于是 a 每轮变号并放大约 2·10⁴ 倍。优化面板在第 1 步就停止这次运行,此时损失已增大 4·10⁸ 倍;历史记录仍像 TensorFlow 那样继续(拖动滑块越过停止点即可看到):第 4 轮损失变为 inf,第 9 轮全部变为 nan。</translation>
    </message>
    <message>
      <source>Seed: minimise x² − 2x + 1 with SGD</source>
      <translation>教程:用 SGD 求 x² − 2x + 1 的最小值</translation>
    </message>
    <message>
      <source>The seed tutorial's loop: SGD with lr 0.01 moves x by x ← 0.98·x + 0.02 each step. After 20 steps x = 0.332391977 and after 200 steps x = 0.98241204, exactly what TensorFlow prints in float32.</source>
      <translation>教程中的循环:学习率 0.01 的 SGD 每一步令 x ← 0.98·x + 0.02。20 步后 x = 0.332391977,200 步后 x = 0.98241204,与 TensorFlow 在 float32 下打印的结果完全相同。</translation>
    </message>
    <message>
      <source>1.1 Derivative of a·x² + b·x + c</source>
      <translation>1.1 求 a·x² + b·x + c 的导数</translation>
    </message>
    <message>
      <source>1.2 Gradients for watched constants</source>
      <translation>1.2 被监视常量的梯度</translation>
    </message>
    <message>
      <source>1.3 Second derivative</source>
      <translation>1.3 二阶导数</translation>
    </message>
    <message>
      <source>1.4 Inside @tf.function</source>
      <translation>1.4 在 @tf.function 中</translation>
    </message>
    <message>
      <source>2.1 Linear regression, min-max normalized (converges)</source>
      <translation>2.1 线性回归,最小-最大归一化(收敛)</translation>
    </message>
    <message>
      <source>2.1 Linear regression on raw years (diverges)</source>
      <translation>2.1 用原始年份做线性回归(发散)</translation>
    </message>
    <message>
      <source>2.1 Minimise with optimizer.apply_gradients</source>
      <translation>2.1 用 optimizer.apply_gradients 求最小值</translation>
    </message>
    <message>
      <source>2.2 Minimise with optimizer.minimize</source>
      <translation>2.2 用 optimizer.minimize 求最小值</translation>
    </message>
    <message>
      <source>2.3 apply_gradients inside @tf.function</source>
      <translation>2.3 在 @tf.function 中使用 apply_gradients</translation>
    </message>
    <message>
      <source>2.4 minimize inside @tf.function</source>
      <translation>2.4 在 @tf.function 中使用 minimize</translation>
    </message>
    <message>
      <source>L = (a·b + c)·f</source>
      <translation>L = (a·b + c)·f</translation>
    </message>
    <message>
      <source>Karpathy's first example: e = a·b = -6, d = e + c = 4, L = d·f = -8. Step back from L and watch the chain rule give ∂L/∂a = f·b = 6.</source>
      <translation>Karpathy 的第一个例子:e = a·b = -6,d = e + c = 4,L = d·f = -8。从 L 开始逐步反向,看链式法则得出 ∂L/∂a = f·b = 6。</translation>
    </message>
    <message>
      <source>One neuron: o = tanh(x1·w1 + x2·w2 + b)</source>
      <translation>一个神经元:o = tanh(x1·w1 + x2·w2 + b)</translation>
    </message>
    <message>
      <source>The neuron from the micrograd lecture: o = 0.7071, do/dn = 1 − o² = 0.5, so ∂o/∂w1 = x1·0.5 = 1 and ∂o/∂w2 = x2·0.5 = 0.</source>
      <translation>micrograd 课程中的神经元:o = 0.7071,do/dn = 1 − o² = 0.5,所以 ∂o/∂w1 = x1·0.5 = 1,∂o/∂w2 = x2·0.5 = 0。</translation>
    </message>
    <message>
      <source>f(x) = 3x² − 4x + 5 at x = 3</source>
      <translation>f(x) = 3x² − 4x + 5 在 x = 3 处</translation>
    </message>
    <message>
      <source>The derivative as a slope: f(3) = 20 and f'(3) = 6·3 − 4 = 14.</source>
      <translation>导数就是斜率:f(3) = 20,f'(3) = 6·3 − 4 = 14。</translation>
    </message>
    <message>
      <source>Beale: gradient descent vs Adam</source>
      <translation>Beale 函数:梯度下降与 Adam 对比</translation>
    </message>
    <message>
      <source>From (1, 1.5) both reach the minimum at (3, 0.5): GD with lr 0.01 in about 1,200 steps, Adam with lr 0.1 in about 450. Click near (3, 4) to start where the gradient is ~6·10⁴ and watch GD diverge.</source>
      <translation>从 (1, 1.5) 出发,两者都到达极小值 (3, 0.5):lr 0.01 的梯度下降约需 1,200 步,lr 0.1 的 Adam 约需 450 步。在 (3, 4) 附近点击,从梯度约为 6·10⁴ 的地方出发,观察梯度下降发散。</translation>
    </message>
    <message>
      <source>Himmelblau: different optimizers, different minima</source>
      <translation>Himmelblau 函数:不同优化器,不同极小值</translation>
    </message>
    <message>
      <source>Four minima. From (−4, 0) GD with lr 0.01 and Adam settle at (−3.78, −3.28), while GD with lr 0.02 and momentum end at (−2.81, 3.13): the optimizer picks the basin. Click elsewhere to start again.</source>
      <translation>四个极小值。从 (−4, 0) 出发,lr 0.01 的梯度下降和 Adam 停在 (−3.78, −3.28),而 lr 0.02 的梯度下降和动量法停在 (−2.81, 3.13):优化器决定了落入哪个盆地。点击别处可重新出发。</translation>
    </message>
    <message>
      <source>Ill-conditioned quadratic 0.1·x1² + 2·x2²</source>
      <translation>病态二次函数 0.1·x1² + 2·x2²</translation>
    </message>
    <message>
      <source>λmax = 4, so GD needs lr &lt; 2/λmax = 0.5: lr 0.4 converges (x1 = −0.94 at step 20), lr 0.5 makes x2 flip between ±2 forever and lr 0.6 diverges (|x2| ≈ 1673 at step 20). Momentum with lr 0.6, β 0.5 is within 0.1 of the minimum in 10 steps.</source>
      <translation>λmax = 4,所以梯度下降需要 lr &lt; 2/λmax = 0.5:lr 0.4 收敛(第 20 步 x1 = −0.94),lr 0.5 使 x2 在 ±2 之间永远来回跳动,lr 0.6 发散(第 20 步 |x2| ≈ 1673)。lr 0.6、β 0.5 的动量法 10 步内就离极小值不到 0.1。</translation>
    </message>
    <message>
      <source>Rosenbrock: optimizer race</source>
      <translation>Rosenbrock 函数:优化器竞赛</translation>
    </message>
    <message>
      <source>Four optimizers from (−1.2, 1): momentum zig-zags across the valley floor and arrives after ~1,000 steps, Adam (lr 0.05) after ~1,500, while plain GD and RMSprop with lr 1e-3 are still crawling along the valley at step 2,000.</source>
      <translation>四个优化器从 (−1.2, 1) 出发:动量法在谷底来回之字形前进,约 1,000 步到达;Adam(lr 0.05)约 1,500 步;而 lr 1e-3 的普通梯度下降和 RMSprop 到第 2,000 步仍在山谷中缓慢爬行。</translation>
    </message>
    <message>
      <source>Rosenbrock: gradient descent crawls along the valley</source>
      <translation>Rosenbrock 函数:梯度下降沿山谷缓慢爬行</translation>
    </message>
    <message>
      <source>Curvature 1001.6 across the valley and 0.4 along it: GD is stable only for lr &lt; 0.002. With lr 1e-3 it drops from 24.2 to 4.1 in 10 steps, then crawls (3.8 at step 100, within 0.01 of (1, 1) after ~11.3k steps); lr 8e-3 diverges within 4 steps.</source>
      <translation>横跨山谷的曲率为 1001.6,沿山谷方向只有 0.4:梯度下降只在 lr &lt; 0.002 时稳定。lr 1e-3 时,损失在 10 步内从 24.2 降到 4.1,随后缓慢爬行(第 100 步为 3.8,约 11.3k 步后才距 (1, 1) 不到 0.01);lr 8e-3 在 4 步内发散。</translation>
    </message>
    <message>
      <source>Saddle point x² − y²</source>
      <translation>鞍点 x² − y²</translation>
    </message>
    <message>
      <source>Starting at y = 0.001, plain GD is effectively stuck (y ≈ 0.05 after 200 steps), Adam escapes steadily and momentum escapes explosively; the function is unbounded below. Start on y = 0 exactly and nothing escapes.</source>
      <translation>从 y = 0.001 出发,普通梯度下降几乎停滞(200 步后 y ≈ 0.05),Adam 稳步逃离,动量法则爆发式逃离;函数没有下界。若恰好从 y = 0 出发,谁也逃不出来。</translation>
    </message>
  </context>
</TS>