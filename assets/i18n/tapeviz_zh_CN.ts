<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
  <context>
    <name>CodeExportDialog</name>
    <message>
      <location filename="../../tapeviz/ui/window/code_export_dialog.py" line="45" />
      <source>Export code</source>
      <translation>导出代码</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_export_dialog.py" line="66" />
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_export_dialog.py" line="68" />
      <source>Save…</source>
      <translation>保存…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_export_dialog.py" line="102" />
      <source>Save script</source>
      <translation>保存脚本</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_export_dialog.py" line="103" />
      <source>Python (*.py)</source>
      <translation>Python 文件 (*.py)</translation>
    </message>
  </context>
  <context>
    <name>CodePane</name>
    <message>
      <location filename="../../tapeviz/ui/window/code_pane.py" line="31" />
      <source>Expression</source>
      <translation>表达式</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_pane.py" line="32" />
      <source>Script</source>
      <translation>脚本</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_pane.py" line="33" />
      <source>Run</source>
      <translation>运行</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_pane.py" line="35" />
      <source>Run (Ctrl+Enter)</source>
      <translation>运行(Ctrl+Enter)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_pane.py" line="36" />
      <source>Stop</source>
      <translation>停止</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/code_pane.py" line="50" />
      <source>Mode:</source>
      <translation>模式:</translation>
    </message>
  </context>
  <context>
    <name>DialogsController</name>
    <message>
      <location filename="../../tapeviz/ui/window/dialogs.py" line="84" />
      <source>&amp;Language</source>
      <translation>语言(&amp;L)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/dialogs.py" line="88" />
      <source>System language</source>
      <translation>跟随系统</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/dialogs.py" line="150" />
      <source>Language changed.</source>
      <translation>界面语言已切换。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/dialogs.py" line="163" />
      <source>Preferences saved.</source>
      <translation>首选项已保存。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/dialogs.py" line="192" />
      <source>About tapeviz</source>
      <translation>关于 tapeviz</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/dialogs.py" line="196" />
      <source>Automatic differentiation and optimization, made visible.</source>
      <translation>让自动微分与优化过程看得见。</translation>
    </message>
  </context>
  <context>
    <name>ErrorFrame</name>
    <message>
      <location filename="../../tapeviz/ui/window/error_frame.py" line="84" />
      <source>Go to line %1</source>
      <translation>转到第 %1 行</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_frame.py" line="88" />
      <source>Add '%1' as a variable</source>
      <translation>把 '%1' 添加为变量</translation>
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
      <location filename="../../tapeviz/ui/window/error_text.py" line="31" />
      <source>{python}</source>
      <translation>{python}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="32" />
      <source>indentation: {python}</source>
      <translation>缩进:{python}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="33" />
      <source>{python} (the code ends too early)</source>
      <translation>{python}(代码提前结束了)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="34" />
      <source>indentation: {python} (the code ends too early)</source>
      <translation>缩进:{python}(代码提前结束了)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="37" />
      <source>'{name}'</source>
      <translation>'{name}'</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="38" />
      <source>'{name}' — add it as a variable?</source>
      <translation>'{name}' —— 要把它添加为变量吗?</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="65" />
      <source>Stopped by the user at line %1</source>
      <translation>在第 %1 行被用户停止</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="68" />
      <source>Stopped by the user</source>
      <translation>已被用户停止</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/error_text.py" line="71" />
      <source>line %1</source>
      <translation>第 %1 行</translation>
    </message>
  </context>
  <context>
    <name>ExpressionPanel</name>
    <message>
      <location filename="../../tapeviz/ui/graph/expression_panel.py" line="50" />
      <source>a function of the variables, e.g. a*x**2 + b*x + c</source>
      <translation>关于变量的函数,例如 a*x**2 + b*x + c</translation>
    </message>
  </context>
  <context>
    <name>FigurePanel</name>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="42" />
      <source>PNG…</source>
      <translation>导出 PNG…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="44" />
      <source>Export this figure as a PNG image</source>
      <translation>将此图导出为 PNG 图像</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="45" />
      <source>SVG…</source>
      <translation>导出 SVG…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="47" />
      <source>Export this figure as an SVG drawing</source>
      <translation>将此图导出为 SVG 矢量图</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="66" />
      <source>Figure %1</source>
      <translation>图 %1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="70" />
      <source>(savefig: %1)</source>
      <translation>(脚本中 savefig 保存为:%1)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="72" />
      <source>(%1 of a scatter's %2 points drawn)</source>
      <translation>(散点图的 %2 个点中绘制了 %1 个)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="75" />
      <source>(the legend lists %1 of %2 labels)</source>
      <translation>(图例列出 %2 个标签中的 %1 个)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="119" />
      <source>PNG image (*.png)</source>
      <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="119" />
      <source>SVG drawing (*.svg)</source>
      <translation>SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="120" />
      <location filename="../../tapeviz/ui/figures/panel.py" line="127" />
      <source>Export figure</source>
      <translation>导出图表</translation>
    </message>
  </context>
  <context>
    <name>GradCheckPanel</name>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="48" />
      <source>Check gradients</source>
      <translation>检验梯度</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="56" />
      <source>source</source>
      <translation>源变量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="57" />
      <source>tape</source>
      <translation>磁带</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="58" />
      <source>finite differences</source>
      <translation>有限差分</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="59" />
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="95" />
      <source>rel. error</source>
      <translation>相对误差</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="94" />
      <source>step h</source>
      <translation>步长 h</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="136" />
      <source>Nothing to check: this tape has no gradient yet.</source>
      <translation>无可检验:这条磁带还没有梯度。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="139" />
      <source>Checking…</source>
      <translation>正在检验…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="156" />
      <source>agree</source>
      <translation>一致</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="156" />
      <source>DISAGREE</source>
      <translation>不一致</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="157" />
      <source>Tape and finite differences {v} (worst {e:.1e}).</source>
      <translation>磁带与有限差分{v}(最大误差 {e:.1e})。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="163" />
      <source>The tape uses the custom gradient of {name}, not the function's derivative.</source>
      <translation>磁带用的是 {name} 的自定义梯度，不是函数本身的导数。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/gradcheck_panel.py" line="179" />
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
      <location filename="../../tapeviz/ui/graph/pane.py" line="80" />
      <source>Fold the network by &amp;layer</source>
      <translation>按层折叠网络(&amp;L)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="83" />
      <source>Show local &amp;derivatives on the edges</source>
      <translation>在边上显示局部导数(&amp;D)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="86" />
      <source>Frame nested &amp;tapes</source>
      <translation>框出嵌套的磁带(&amp;T)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="103" />
      <source>&amp;Graph</source>
      <translation>计算图(&amp;G)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="107" />
      <source>&amp;Export graph</source>
      <translation>导出计算图(&amp;E)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="111" />
      <source>&amp;Layout</source>
      <translation>布局(&amp;L)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="143" />
      <source>Graphviz dot is not installed; layout unchanged.</source>
      <translation>未安装 Graphviz dot,布局保持不变。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="184" />
      <source>There is no graph to export yet: run some code.</source>
      <translation>还没有可导出的计算图:请先运行代码。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="189" />
      <source>Export graph</source>
      <translation>导出计算图</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="205" />
      <source>Cannot write %1: %2</source>
      <translation>无法写入 %1:%2</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/pane.py" line="208" />
      <source>Graph exported to %1</source>
      <translation>计算图已导出到 %1</translation>
    </message>
  </context>
  <context>
    <name>Help</name>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="23" />
      <source>Keyboard shortcuts</source>
      <translation>键盘快捷键</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="24" />
      <source>Key</source>
      <translation>按键</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="25" />
      <source>Does</source>
      <translation>作用</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="26" />
      <source>Where</source>
      <translation>位置</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="27" />
      <source>Libraries in tapeviz</source>
      <translation>tapeviz 中的库</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="28" />
      <source>Scripts can use these names after import tensorflow as tf (or tapeviz.tf), import torch (or tapeviz.torch) and import sklearn (its data sets, splits, scalers and scores).</source>
      <translation>脚本在 import tensorflow as tf(或 tapeviz.tf)、import torch(或 tapeviz.torch)和 import sklearn(它的数据集、划分、缩放和评分)之后可以使用这些名称。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="34" />
      <source>No name matches.</source>
      <translation>没有匹配的名称。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="35" />
      <source>tf.keras is Keras 3, and where Keras 3 does something other than a tutorial's text says, tapeviz does what Keras 3 does: a layer's weights are the ones add_weight or keras.Variable made (a tf.Variable attribute of a Keras layer or model is not among its variables, is not counted in the summary and is not trained by fit, while a tf.Module's are); a layer's positional inputs must be tensors or arrays (a list of numbers raises ValueError); a Keras model has no submodules; get_config()['dtype'] is a DTypePolicy dict; compile() without a loss keeps the loss given before; an overridden train_step gets (x, y) from fit, (x, y, sample_weight) with sample weights, and (x, y, sample_weight) always from train_on_batch.</source>
      <translation>tf.keras 即 Keras 3;当 Keras 3 的行为与教程文字不同时,tapeviz 按 Keras 3 的行为执行:层的权重是 add_weight 或 keras.Variable 创建的那些(Keras 层或模型的 tf.Variable 属性不算它的变量,不计入 summary,也不被 fit 训练,而 tf.Module 的会);层的位置输入必须是张量或数组(数字列表会引发 ValueError);Keras 模型没有子模块;get_config()['dtype'] 是 DTypePolicy 字典;不带损失的 compile() 保留之前给定的损失;重写的 train_step 从 fit 得到 (x, y),有样本权重时得到 (x, y, sample_weight),从 train_on_batch 总是得到 (x, y, sample_weight)。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="50" />
      <location filename="../../tapeviz/ui/window/help_pages.py" line="51" />
      <location filename="../../tapeviz/ui/window/help_pages.py" line="52" />
      <location filename="../../tapeviz/ui/window/help_pages.py" line="54" />
      <location filename="../../tapeviz/ui/window/help_pages.py" line="55" />
      <source>Graph</source>
      <translation>计算图</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="50" />
      <source>fit the graph</source>
      <translation>使计算图适应窗口</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="51" />
      <source>zoom in, out</source>
      <translation>放大、缩小</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="53" />
      <source>walk to the neighbouring node</source>
      <translation>移到相邻的节点</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="54" />
      <source>clear the selection</source>
      <translation>取消选择</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="55" />
      <source>wheel, drag</source>
      <translation>滚轮、拖动</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="56" />
      <source>zoom at the pointer, pan</source>
      <translation>在指针处缩放、平移</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="57" />
      <source>Backward pass</source>
      <translation>反向传播</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="58" />
      <source>reveal the step (predict, then reveal)</source>
      <translation>揭晓这一步(先预测,再揭晓)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="59" />
      <location filename="../../tapeviz/ui/window/help_pages.py" line="61" />
      <source>Editor</source>
      <translation>编辑器</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="60" />
      <source>indent (four spaces)</source>
      <translation>缩进(四个空格)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="62" />
      <source>new line, indented like the last (one level more after ':')</source>
      <translation>换行,缩进与上一行相同(':' 之后多一级)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="63" />
      <source>Optimization</source>
      <translation>优化过程</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="63" />
      <source>click the surface</source>
      <translation>点击曲面</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="64" />
      <source>start every run from there</source>
      <translation>让所有运行从那里出发</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="67" />
      <source>Getting started</source>
      <translation>入门</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="68" />
      <source>&lt;b&gt;1. Type a function.&lt;/b&gt; In expression mode the editor holds one formula of the variables, such as &lt;code&gt;a*x**2 + b*x + c&lt;/code&gt; (&lt;code&gt;^&lt;/code&gt;, &lt;code&gt;·&lt;/code&gt; and &lt;code&gt;x²&lt;/code&gt; work too). The graph follows as you type.</source>
      <translation>&lt;b&gt;1. 输入一个函数。&lt;/b&gt;在表达式模式下,编辑器里是关于变量的一个公式,例如 &lt;code&gt;a*x**2 + b*x + c&lt;/code&gt;(也可以写 &lt;code&gt;^&lt;/code&gt;、&lt;code&gt;·&lt;/code&gt; 和 &lt;code&gt;x²&lt;/code&gt;)。计算图会随着输入实时更新。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="74" />
      <source>&lt;b&gt;2. Give the variables values.&lt;/b&gt; Each row of the Variables table is a name, a value (a number or a list such as &lt;code&gt;[1, 2, 3]&lt;/code&gt;) and a kind: &lt;i&gt;trainable&lt;/i&gt; (a tf.Variable, it gets a gradient), &lt;i&gt;watched&lt;/i&gt; (a constant the tape watches) or &lt;i&gt;constant&lt;/i&gt;. An unknown name in the formula offers to add it.</source>
      <translation>&lt;b&gt;2. 给变量赋值。&lt;/b&gt;变量表的每一行是一个名字、一个值(数字,或 &lt;code&gt;[1, 2, 3]&lt;/code&gt; 这样的列表)和一种类型:&lt;i&gt;可训练&lt;/i&gt;(tf.Variable,会得到梯度)、&lt;i&gt;被监视&lt;/i&gt;(磁带监视的常量)或&lt;i&gt;常量&lt;/i&gt;。公式里出现未知名称时,可以一键把它添加为变量。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="81" />
      <source>&lt;b&gt;3. Read the graph.&lt;/b&gt; Every recorded op is a node with its value; after the backward pass each node also shows its gradient. Click a node to see every path to the result; hover for the full value and the op's rule.</source>
      <translation>&lt;b&gt;3. 读懂计算图。&lt;/b&gt;每个被记录的运算都是一个节点,标着它的值;反向传播之后,每个节点还会显示它的梯度。点击节点可以看到通往结果的所有路径;鼠标悬停可以看到完整的值和该运算的规则。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="87" />
      <source>&lt;b&gt;4. Step through the backward pass.&lt;/b&gt; The Backward pass tab walks the chain rule one op at a time: → steps, ← goes back, Space plays, Home starts again. Turn on &lt;i&gt;predict, then reveal&lt;/i&gt; to let the class guess each gradient first.</source>
      <translation>&lt;b&gt;4. 逐步演示反向传播。&lt;/b&gt;“反向传播”选项卡一次一个运算地走过链式法则:→ 前进,← 后退,空格播放,Home 从头开始。打开&lt;i&gt;先预测,再揭晓&lt;/i&gt;,可以让学生先猜每个梯度。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="93" />
      <source>&lt;b&gt;5. Watch an optimizer.&lt;/b&gt; The Optimization tab (Ctrl+2) minimizes the function over its trainable variables: pick optimizers and learning rates, press Play, click the surface to start elsewhere. The graph shows the tape of the step on screen.</source>
      <translation>&lt;b&gt;5. 观察优化器。&lt;/b&gt;“优化过程”选项卡(Ctrl+2)对可训练变量最小化这个函数:选择优化器和学习率,按“播放”,点击曲面换一个起点。计算图显示屏幕上那一步的磁带。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="99" />
      <source>&lt;b&gt;6. Or paste TensorFlow code.&lt;/b&gt; Switch the mode to Script and paste a &lt;code&gt;tf.GradientTape&lt;/code&gt; example as it is: &lt;code&gt;import tensorflow as tf&lt;/code&gt; runs on tapeviz's own tape (the last page lists the names it has). Ctrl+Enter runs, Stop ends a long run.</source>
      <translation>&lt;b&gt;6. 或者粘贴 TensorFlow 代码。&lt;/b&gt;把模式切换为“脚本”,原样粘贴一个 &lt;code&gt;tf.GradientTape&lt;/code&gt; 示例:&lt;code&gt;import tensorflow as tf&lt;/code&gt; 会在 tapeviz 自己的磁带上运行(最后一页列出了可用的名称)。Ctrl+Enter 运行,“停止”结束长时间的运行。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help_pages.py" line="106" />
      <source>&lt;b&gt;7. Present it.&lt;/b&gt; Ctrl + and Ctrl − scale every text, F11 is full screen, Ctrl+Shift+D the dark theme and Ctrl+Shift+H clean mode (only the graph and the tabs). The Presets menu holds every example of the tutorials.</source>
      <translation>&lt;b&gt;7. 上课演示。&lt;/b&gt;Ctrl + 和 Ctrl − 缩放所有文字,F11 全屏,Ctrl+Shift+D 切换深色主题,Ctrl+Shift+H 简洁模式(只显示计算图和选项卡)。“预设”菜单里有教程中的每一个示例。</translation>
    </message>
  </context>
  <context>
    <name>HelpController</name>
    <message>
      <location filename="../../tapeviz/ui/window/help.py" line="100" />
      <source>&amp;Getting started</source>
      <translation>入门(&amp;G)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help.py" line="101" />
      <source>&amp;Keyboard shortcuts</source>
      <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help.py" line="102" />
      <source>&amp;Libraries in tapeviz</source>
      <translation>tapeviz 中的库(&amp;L)</translation>
    </message>
  </context>
  <context>
    <name>HelpDialog</name>
    <message>
      <location filename="../../tapeviz/ui/window/help.py" line="35" />
      <source>tapeviz Help</source>
      <translation>tapeviz 帮助</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help.py" line="44" />
      <source>Filter, e.g. reduce or keras</source>
      <translation>筛选,例如 reduce 或 keras</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help.py" line="52" />
      <source>Getting started</source>
      <translation>入门</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help.py" line="53" />
      <source>Keyboard shortcuts</source>
      <translation>键盘快捷键</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/help.py" line="54" />
      <source>TensorFlow names</source>
      <translation>TensorFlow 名称</translation>
    </message>
  </context>
  <context>
    <name>LowerTabs</name>
    <message>
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="62" />
      <source>Backward pass</source>
      <translation>反向传播</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="63" />
      <source>Optimization</source>
      <translation>优化过程</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="65" />
      <source>Timeline</source>
      <translation>时间线</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="66" />
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="178" />
      <source>Plots</source>
      <translation>图表</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="68" />
      <source>Network</source>
      <translation>网络</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="145" />
      <source>The last run recorded no loop: run a script whose loop records a tape per step</source>
      <translation>上次运行没有记录循环:请运行每一步都记录一条磁带的循环脚本</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/lower_tabs.py" line="178" />
      <source>Plots (%1)</source>
      <translation>图表 (%1)</translation>
    </message>
  </context>
  <context>
    <name>MainWindow</name>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="119" />
      <source>Ready</source>
      <translation>就绪</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="184" />
      <source>Code</source>
      <translation>代码</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="186" />
      <source>Variables</source>
      <translation>变量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="188" />
      <source>Output</source>
      <translation>输出</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="189" />
      <source>Tapes</source>
      <translation>磁带</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="216" />
      <source>&amp;File</source>
      <translation>文件(&amp;F)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="217" />
      <source>&amp;Open session…</source>
      <translation>打开会话…(&amp;O)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="218" />
      <source>&amp;Save session</source>
      <translation>保存会话(&amp;S)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="219" />
      <source>Save session &amp;as…</source>
      <translation>会话另存为…(&amp;A)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="220" />
      <source>&amp;Export code (TensorFlow, PyTorch, JAX)…</source>
      <translation>导出代码(TensorFlow、PyTorch、JAX)…(&amp;E)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="222" />
      <source>Open &amp;recent</source>
      <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="226" />
      <source>&amp;Preferences…</source>
      <translation>首选项…(&amp;P)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="228" />
      <source>&amp;Quit</source>
      <translation>退出(&amp;Q)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="229" />
      <location filename="../../tapeviz/ui/window/main_window.py" line="230" />
      <source>&amp;Run</source>
      <translation>运行(&amp;R)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="231" />
      <source>&amp;Stop</source>
      <translation>停止(&amp;S)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="233" />
      <source>&amp;Play / pause</source>
      <translation>播放/暂停(&amp;P)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="234" />
      <source>Step &amp;forward</source>
      <translation>前进一步(&amp;F)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="235" />
      <source>Step &amp;back</source>
      <translation>后退一步(&amp;B)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="236" />
      <source>Back to the s&amp;tart</source>
      <translation>回到开始(&amp;T)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="239" />
      <source>&amp;View</source>
      <translation>视图(&amp;V)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="243" />
      <source>&amp;Backward pass</source>
      <translation>反向传播(&amp;B)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="244" />
      <source>&amp;Optimization</source>
      <translation>优化过程(&amp;O)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="245" />
      <source>&amp;Timeline</source>
      <translation>时间线(&amp;T)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="246" />
      <source>P&amp;lots</source>
      <translation>图表(&amp;L)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="247" />
      <source>&amp;Network</source>
      <translation>网络(&amp;N)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="252" />
      <source>&amp;Presets</source>
      <translation>预设(&amp;P)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="260" />
      <source>&amp;Help</source>
      <translation>帮助(&amp;H)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/main_window.py" line="263" />
      <source>&amp;About tapeviz</source>
      <translation>关于 tapeviz(&amp;A)</translation>
    </message>
  </context>
  <context>
    <name>Messages</name>
    <message>
      <location filename="../../tapeviz/ui/messages.py" line="47" />
      <source>line %1: %2</source>
      <translation>第 %1 行:%2</translation>
    </message>
  </context>
  <context>
    <name>NetworkDiagram</name>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="78" />
      <source>Add a hidden layer</source>
      <translation>增加一个隐藏层</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="80" />
      <source>Remove the last hidden layer</source>
      <translation>删除最后一个隐藏层</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="85" />
      <source>Features</source>
      <translation>特征</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="86" />
      <source>Output</source>
      <translation>输出</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="184" />
      <source>Remove a neuron from this layer</source>
      <translation>从这一层删除一个神经元</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="188" />
      <source>1 neuron</source>
      <translation>1 个神经元</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="189" />
      <source>%1 neurons</source>
      <translation>%1 个神经元</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="190" />
      <source>Add a neuron to this layer</source>
      <translation>给这一层增加一个神经元</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="200" />
      <source>1 hidden layer</source>
      <translation>1 个隐藏层</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="201" />
      <source>%1 hidden layers</source>
      <translation>%1 个隐藏层</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="354" />
      <source>%1 = %2 (click to edit)</source>
      <translation>%1 = %2(点击编辑)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="363" />
      <source>Input %1 (click to switch it off)</source>
      <translation>输入 %1(点击关闭)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="364" />
      <source>Input %1 is off (click to switch it on)</source>
      <translation>输入 %1 已关闭(点击打开)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="366" />
      <source>The output over the input plane</source>
      <translation>输出在输入平面上的取值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="367" />
      <source>Neuron %1 of %2: its output over the input plane</source>
      <translation>%2 的第 %1 个神经元:它在输入平面上的输出</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="397" />
      <source>%1: type a value, Enter applies, Esc closes</source>
      <translation>%1:输入数值,回车应用,Esc 关闭</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/diagram.py" line="419" />
      <source>Not a number: %1</source>
      <translation>不是数字:%1</translation>
    </message>
  </context>
  <context>
    <name>NetworkPanel</name>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="34" />
      <source>ReLU</source>
      <translation>ReLU 线性整流</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="35" />
      <source>Tanh</source>
      <translation>Tanh 双曲正切</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="36" />
      <source>Sigmoid</source>
      <translation>Sigmoid S 形</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="37" />
      <source>Linear</source>
      <translation>线性</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="40" />
      <source>None</source>
      <translation>无</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="41" />
      <source>L1</source>
      <translation>L1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="42" />
      <source>L2</source>
      <translation>L2</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="117" />
      <source>Reset</source>
      <translation>重置</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="119" />
      <source>Back to the first weights (Home)</source>
      <translation>回到最初的权重(Home)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="122" />
      <location filename="../../tapeviz/ui/network/controls.py" line="312" />
      <source>Play</source>
      <translation>播放</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="124" />
      <source>Train or pause (Space)</source>
      <translation>训练或暂停(空格)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="128" />
      <source>Step</source>
      <translation>单步</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="130" />
      <source>Train one epoch (→)</source>
      <translation>训练一个轮次(→)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="132" />
      <source>New weights</source>
      <translation>新权重</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="134" />
      <source>Start from other random weights (a new seed)</source>
      <translation>从另一组随机权重开始(新的种子)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="142" />
      <source>λmax: the largest curvature of the loss at the current weights (power iteration on Hessian-vector products). Plain gradient descent is stable for lr &lt; 2/λmax.</source>
      <translation>λmax:损失在当前权重处的最大曲率(对 Hessian 向量积做幂迭代)。普通梯度下降在 lr &lt; 2/λmax 时稳定。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="155" />
      <source>Classification</source>
      <translation>分类</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="156" />
      <source>Regression</source>
      <translation>回归</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="164" />
      <location filename="../../tapeviz/ui/network/controls.py" line="286" />
      <source>Race</source>
      <translation>比赛</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="165" />
      <source>Train the same network from the same first weights with 2 to 6 optimizers</source>
      <translation>用 2 到 6 个优化器从同一组初始权重训练同一个网络</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="168" />
      <source>Export…</source>
      <translation>导出…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="170" />
      <source>This network as a Keras and a PyTorch script that train to the same numbers from the same first weights; its training as an animation, a picture or its losses</source>
      <translation>将此网络导出为 Keras 和 PyTorch 脚本：从相同的初始权重训练，得到相同的数值；或将它的训练导出为动画、图片或损失数据</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="189" />
      <source>The hidden layers' activation</source>
      <translation>隐藏层的激活函数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="190" />
      <source>Regularization rate</source>
      <translation>正则化率</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="191" />
      <source>Problem type (it follows the data set)</source>
      <translation>问题类型(随数据集而定)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="193" />
      <source>The optimizer that trains the network</source>
      <translation>训练网络的优化器</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="210" />
      <source>Learning rate</source>
      <translation>学习率</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="211" />
      <source>Activation</source>
      <translation>激活函数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="212" />
      <source>Regularization</source>
      <translation>正则化</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="237" />
      <source>Code: Keras and PyTorch scripts…</source>
      <translation>代码：Keras 和 PyTorch 脚本…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="240" />
      <source>Network as PNG…</source>
      <translation>网络图为 PNG…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="241" />
      <source>Losses as CSV…</source>
      <translation>损失为 CSV…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="258" />
      <source>Race these optimizers (2 to 6):</source>
      <translation>让这些优化器比赛(2 到 6 个):</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="285" />
      <source>Race (%1)</source>
      <translation>比赛(%1)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="312" />
      <source>Pause</source>
      <translation>暂停</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="317" />
      <source>Epoch %1</source>
      <translation>轮次 %1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="323" />
      <source>2/λmax = …</source>
      <translation>稳定上限 2/λmax = …</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="326" />
      <source>2/λmax = %1</source>
      <translation>稳定上限 2/λmax = %1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="330" />
      <source>The learning rate is above 2/λmax: the steps overshoot along the steepest direction and can diverge</source>
      <translation>学习率高于 2/λmax:沿最陡方向的步子会越过极小值,可能发散</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="30" />
      <source>Circle</source>
      <translation>圆形</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="31" />
      <source>Exclusive or</source>
      <translation>异或</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="32" />
      <source>Two gaussians</source>
      <translation>两个高斯分布</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="33" />
      <source>Spiral</source>
      <translation>螺旋</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="34" />
      <source>Two moons</source>
      <translation>两个月牙</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="35" />
      <source>Plane (regression)</source>
      <translation>平面(回归)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="36" />
      <source>Multi gaussian (regression)</source>
      <translation>多个高斯(回归)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="89" />
      <source>Data</source>
      <translation>数据</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="121" />
      <source>Regenerate</source>
      <translation>重新生成</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="123" />
      <location filename="../../tapeviz/ui/network/data_controls.py" line="180" />
      <source>New points from a new seed</source>
      <translation>用新的种子生成新的数据点</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="141" />
      <source>Training data: %1 %</source>
      <translation>训练数据:%1 %</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="143" />
      <source>Noise: %1</source>
      <translation>噪声:%1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="144" />
      <source>Batch size: %1</source>
      <translation>批大小:%1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/data_controls.py" line="167" />
      <source>Your script's own points: noise and new points belong to Playground's data sets</source>
      <translation>这是你脚本自己的数据点:噪声和重新生成只适用于 Playground 的数据集</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/documents.py" line="44" />
      <source>Nothing to export yet: the network is being built.</source>
      <translation>尚无可导出的内容：网络正在构建中。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/loss_plot.py" line="92" />
      <source>epoch</source>
      <translation>轮次</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/output_panel.py" line="77" />
      <location filename="../../tapeviz/ui/network/output_panel.py" line="189" />
      <source>Output</source>
      <translation>输出</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/output_panel.py" line="86" />
      <source>Show test data</source>
      <translation>显示测试数据</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/output_panel.py" line="88" />
      <source>Discretize output</source>
      <translation>离散化输出</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/output_panel.py" line="163" />
      <source>Test loss %1</source>
      <translation>测试损失 %1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/output_panel.py" line="165" />
      <source>Training loss %1</source>
      <translation>训练损失 %1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/script_mode.py" line="101" />
      <source>ⓘ The script's fit is not drawn here: %1.</source>
      <translation>ⓘ 脚本的 fit 无法在此绘制：%1。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/script_mode.py" line="122" />
      <source>Your script's network</source>
      <translation>你的脚本的网络</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/script_mode.py" line="127" />
      <source>This network's code is your script, in the editor</source>
      <translation>这个网络的代码就是你的脚本，在编辑器里</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/script_mode.py" line="138" />
      <source>Your script's training: %1 network, %2 steps, %3 (%4). Play replays the recorded weights; the Timeline's cursor moves with it.</source>
      <translation>你的脚本的训练：%1 网络，%2 步，%3（%4）。播放会回放记录下的权重；时间线的光标随之移动。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/text.py" line="24" />
      <source>Not applied: %1. The last good settings stay.</source>
      <translation>未应用:%1。保留上一次有效的设置。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/text.py" line="33" />
      <source>Diverged at step %1: the loss or the new weights were not finite numbers.</source>
      <translation>在第 %1 步发散:损失或新的权重不是有限数。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/text.py" line="46" />
      <source>Every run has diverged: reset, or lower the learning rate</source>
      <translation>所有运行都已发散:请重置,或降低学习率</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/text.py" line="51" />
      <source>step %1</source>
      <translation>第 %1 步</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/text.py" line="53" />
      <source>%1 steps/s</source>
      <translation>%1 步/秒</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/text.py" line="69" />
      <source>Tip: the network is drawn small here. Clean mode (Ctrl+Shift+H) gives it the whole window.</source>
      <translation>提示：网络在此处显示得较小。整洁模式（Ctrl+Shift+H）可让它占满整个窗口。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/text.py" line="78" />
      <source>Playground now trains your script's network and points with its own settings (square loss, the optimizer above). Run the script again to see its fit.</source>
      <translation>Playground 现在用它自己的设置（平方损失、上方的优化器）训练你的脚本的网络和数据点。再次运行脚本可查看脚本的 fit。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/text.py" line="87" />
      <source>These are the weights your script's fit recorded: change a setting to let Playground train this network, then edit its weights.</source>
      <translation>这些是你的脚本的 fit 记录下的权重：先修改一项设置，让 Playground 训练这个网络，再编辑它的权重。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/wiring.py" line="24" />
      <source>Choose a demo…</source>
      <translation>选择演示…</translation>
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
      <location filename="../../tapeviz/ui/network/controls.py" line="238" />
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="239" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="115" />
      <source>Animation as GIF…</source>
      <translation>动画导出为 GIF…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/controls.py" line="239" />
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="240" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="116" />
      <source>Animation as MP4…</source>
      <translation>动画导出为 MP4…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/film.py" line="131" />
      <location filename="../../tapeviz/ui/studio/export.py" line="78" />
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="167" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="77" />
      <location filename="../../tapeviz/ui/timeline/export.py" line="41" />
      <source>Export</source>
      <translation>导出</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/film.py" line="150" />
      <location filename="../../tapeviz/ui/plots/export.py" line="357" />
      <location filename="../../tapeviz/ui/studio/studio.py" line="332" />
      <location filename="../../tapeviz/ui/timeline/export.py" line="50" />
      <source>Export failed: {error}</source>
      <translation>导出失败:{error}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/network/film.py" line="153" />
      <location filename="../../tapeviz/ui/plots/export.py" line="372" />
      <location filename="../../tapeviz/ui/studio/export.py" line="94" />
      <location filename="../../tapeviz/ui/timeline/export.py" line="54" />
      <source>Exported {name}.</source>
      <translation>已导出 {name}。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/export.py" line="318" />
      <source>Exporting {name}… {percent} %</source>
      <translation>正在导出 {name}… {percent} %</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="140" />
      <location filename="../../tapeviz/ui/timeline/heat.py" line="72" />
      <source>step</source>
      <translation>步</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="287" />
      <location filename="../../tapeviz/ui/timeline/plots.py" line="47" />
      <source>Loss</source>
      <translation>损失</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="288" />
      <location filename="../../tapeviz/ui/plots/surface_plot.py" line="347" />
      <source>loss f(x)</source>
      <translation>损失 f(x)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="293" />
      <location filename="../../tapeviz/ui/timeline/heat.py" line="71" />
      <location filename="../../tapeviz/ui/timeline/plots.py" line="53" />
      <source>Parameters</source>
      <translation>参数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="294" />
      <location filename="../../tapeviz/ui/timeline/plots.py" line="54" />
      <source>value</source>
      <translation>值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="299" />
      <location filename="../../tapeviz/ui/timeline/plots.py" line="59" />
      <source>Gradient norm</source>
      <translation>梯度范数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/step_plots.py" line="300" />
      <location filename="../../tapeviz/ui/timeline/plots.py" line="60" />
      <source>‖∇f‖</source>
      <translation>‖∇f‖</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/surface_plot.py" line="203" />
      <source>Loss surface (click to start)</source>
      <translation>损失曲面(点击设为起点)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/surface_plot.py" line="204" />
      <source>Loss surface</source>
      <translation>损失曲面</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/plots/surface_plot.py" line="338" />
      <source>Loss curve and tangent (slope = gradient)</source>
      <translation>损失曲线与切线(斜率 = 梯度)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/export.py" line="71" />
      <source>Nothing to export yet: the runs are still being computed.</source>
      <translation>暂无可导出的内容:运行仍在计算中。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/jobs.py" line="83" />
      <source>Nothing for the Optimization tab to optimize: {message}</source>
      <translation>优化页没有可优化的内容:{message}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/jobs.py" line="87" />
      <source>The loss cannot be optimized: {message}</source>
      <translation>无法优化该损失:{message}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/jobs.py" line="157" />
      <source>Computing %n run(s)…</source>
      <translation>正在计算 %n 个运行…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/jobs.py" line="178" />
      <source>Computation cancelled.</source>
      <translation>计算已取消。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="123" />
      <source>Add a run to the race (up to six)</source>
      <translation>为竞赛添加一个运行(最多六个)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="127" />
      <source>Remove the selected run</source>
      <translation>删除选中的运行</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="133" />
      <source>Learning rate on a log scale: drag (a decade per 100 px, Shift finer), ← → small steps, Page Up/Down a decade; or type it above</source>
      <translation>对数刻度上的学习率:拖动(每 100 像素一个数量级,按住 Shift 更精细),← → 小步调整,Page Up/Down 调整一个数量级;也可以在上方直接输入</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="145" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="63" />
      <source> steps/s</source>
      <translation> 步/秒</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="147" />
      <source>Log-scale loss axis</source>
      <translation>损失轴使用对数刻度</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="155" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="51" />
      <source>Reset</source>
      <translation>重置</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="158" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="55" />
      <source>Step</source>
      <translation>单步</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="161" />
      <location filename="../../tapeviz/ui/studio/studio.py" line="276" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="53" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="199" />
      <source>Play</source>
      <translation>播放</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="171" />
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="192" />
      <source>Run</source>
      <translation>运行</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="198" />
      <source>Optimizer</source>
      <translation>优化器</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="208" />
      <source>Steps</source>
      <translation>步数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="209" />
      <source>Speed</source>
      <translation>速度</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="214" />
      <source>Slice</source>
      <translation>切片</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="241" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="117" />
      <source>Plots as PNG…</source>
      <translation>图表导出为 PNG…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="242" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="118" />
      <source>Plots as SVG…</source>
      <translation>图表导出为 SVG…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="243" />
      <source>Histories as CSV…</source>
      <translation>历史记录导出为 CSV…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/optimizer_panel.py" line="402" />
      <location filename="../../tapeviz/ui/timeline/panel.py" line="262" />
      <source>step {k} of {n}</source>
      <translation>第 {k} 步,共 {n} 步</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/studio.py" line="266" />
      <location filename="../../tapeviz/ui/timeline/controls.py" line="198" />
      <source>Pause</source>
      <translation>暂停</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/studio.py" line="435" />
      <source>Click-to-start needs exactly two scalar parameters.</source>
      <translation>点击设置起点需要恰好两个标量参数。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/studio.py" line="443" />
      <source>New start ({x}, {y}): computing…</source>
      <translation>新起点 ({x}, {y}):正在计算…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/text.py" line="13" />
      <source>batched replay</source>
      <translation>批量回放</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/text.py" line="14" />
      <source>replay</source>
      <translation>回放</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/text.py" line="15" />
      <source>a fresh tape every step</source>
      <translation>每步一条新磁带</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/text.py" line="24" />
      <source>%n run(s) of {steps} steps computed in {seconds} s ({method}).</source>
      <translation>已计算 %n 个运行,每个 {steps} 步,用时 {seconds} 秒({method})。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/text.py" line="32" />
      <source>The loss axis is linear: log scale needs positive losses.</source>
      <translation>损失轴为线性刻度:对数刻度需要正的损失值。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/text.py" line="37" />
      <source>Note: {notes}.</source>
      <translation>注意:{notes}。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/studio/text.py" line="52" />
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
    <name>OutputPane</name>
    <message>
      <location filename="../../tapeviz/ui/window/output_pane.py" line="56" />
      <source>Out: %1</source>
      <translation>输出值：%1</translation>
    </message>
  </context>
  <context>
    <name>PlotsPanel</name>
    <message>
      <location filename="../../tapeviz/ui/figures/panel.py" line="150" />
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
      <location filename="../../tapeviz/ui/window/presenter.py" line="138" />
      <source>Full &amp;screen</source>
      <translation>全屏(&amp;S)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/presenter.py" line="140" />
      <source>&amp;Larger text</source>
      <translation>放大文字(&amp;L)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/presenter.py" line="142" />
      <source>&amp;Smaller text</source>
      <translation>缩小文字(&amp;S)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/presenter.py" line="144" />
      <source>&amp;Reset text size</source>
      <translation>恢复文字大小(&amp;R)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/presenter.py" line="148" />
      <source>&amp;Dark theme</source>
      <translation>深色主题(&amp;D)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/presenter.py" line="152" />
      <source>&amp;Clean mode (hide the editor)</source>
      <translation>简洁模式(隐藏编辑器)(&amp;C)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/presenter.py" line="184" />
      <source>Text size %1 %</source>
      <translation>文字大小 %1 %</translation>
    </message>
  </context>
  <context>
    <name>RunController</name>
    <message>
      <location filename="../../tapeviz/ui/window/long_output.py" line="51" />
      <source> … ({count} more characters on this line)</source>
      <translation> …(此行还有 {count} 个字符)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="260" />
      <source>Type a function or paste a script to run.</source>
      <translation>请输入函数或粘贴脚本再运行。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="269" />
      <source>Running…</source>
      <translation>正在运行…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="304" />
      <source>Running… %1 lines printed so far</source>
      <translation>正在运行… 已打印 %1 行</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="307" />
      <source>Running… %1 figures drawn so far</source>
      <translation>正在运行… 已绘制 %1 幅图</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="315" />
      <source>Running… %1 tapes so far (the timeline grows as the run goes on)</source>
      <translation>正在运行… 已记录 %1 条磁带(时间线随运行增长)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="323" />
      <source>Stopping…</source>
      <translation>正在停止…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="333" />
      <source>Internal error: %1</source>
      <translation>内部错误:%1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="368" />
      <source>the %1 tape(s) recorded until then are kept.</source>
      <translation>保留了此前记录的 %1 条磁带。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/runs.py" line="376" />
      <source>Ran in %1 ms; %2 tape(s) recorded.</source>
      <translation>运行用时 %1 毫秒;记录了 %2 条磁带。</translation>
    </message>
  </context>
  <context>
    <name>RunLegend</name>
    <message>
      <location filename="../../tapeviz/ui/plots/run_legend.py" line="234" />
      <location filename="../../tapeviz/ui/plots/run_legend.py" line="321" />
      <source>+{count} more</source>
      <translation>还有 {count} 个</translation>
    </message>
  </context>
  <context>
    <name>SessionController</name>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="142" />
      <source>Cannot open %1: %2</source>
      <translation>无法打开 %1:%2</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="156" />
      <source>Cannot save %1: %2</source>
      <translation>无法保存 %1:%2</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="162" />
      <source>Saved %1</source>
      <translation>已保存 %1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="167" />
      <source>Open session</source>
      <translation>打开会话</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="182" />
      <source>Save session</source>
      <translation>保存会话</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="210" />
      <source>No recent sessions</source>
      <translation>没有最近的会话</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="224" />
      <source>Autosave failed: %1</source>
      <translation>自动保存失败:%1</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="266" />
      <source>Restore your work?</source>
      <translation>恢复你的工作?</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="267" />
      <source>tapeviz did not close properly last time. Restore the work it saved automatically?</source>
      <translation>tapeviz 上次没有正常关闭。要恢复自动保存的工作吗?</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/sessions.py" line="274" />
      <source>Restored the autosaved work.</source>
      <translation>已恢复自动保存的工作。</translation>
    </message>
  </context>
  <context>
    <name>StepperPanel</name>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="39" />
      <source>Backward pass</source>
      <translation>反向传播</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="40" />
      <source>Forward pass</source>
      <translation>前向计算</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="113" />
      <source>Each gradient() call is its own backward pass: pick the one to step.</source>
      <translation>每次 gradient() 调用都是一次独立的反向传播:选择要逐步查看的那一次。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="116" />
      <source>Reset</source>
      <translation>重置</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="116" />
      <source>Reset (Home)</source>
      <translation>重置(Home)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="118" />
      <source>Step back (←)</source>
      <translation>上一步(←)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="119" />
      <source>Step (→)</source>
      <translation>下一步(→)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="121" />
      <location filename="../../tapeviz/ui/stepper/panel.py" line="381" />
      <source>Play</source>
      <translation>播放</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="121" />
      <source>Play/pause (Space)</source>
      <translation>播放/暂停(空格)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="130" />
      <source> steps/s</source>
      <translation> 步/秒</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="131" />
      <source>Predict, then reveal</source>
      <translation>先预测,再揭晓</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="134" />
      <source>Reveal</source>
      <translation>揭晓</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="134" />
      <source>Reveal this step's gradients (R)</source>
      <translation>揭晓这一步的梯度(R)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="183" />
      <source>Chain rule</source>
      <translation>链式法则</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="184" />
      <source>Gradient check</source>
      <translation>梯度检验</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="185" />
      <source>Value</source>
      <translation>值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="288" />
      <source>This backward pass cannot be stepped here: {error}</source>
      <translation>这个反向传播无法在这里逐步演示：{error}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="381" />
      <source>Pause</source>
      <translation>暂停</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="511" />
      <source>Start: the target's gradient is 1. Press → to step back through the ops.</source>
      <translation>开始:目标的梯度为 1。按 → 沿运算逐步反向传播。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="517" />
      <source>AccumulateGrad: backward() adds this pass into .grad (until zero_grad()):</source>
      <translation>AccumulateGrad：backward() 把这一遍的梯度累加进 .grad（直到 zero_grad()）：</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/panel.py" line="541" />
      <source>Start: only the inputs have values. Press → to compute the ops left to right.</source>
      <translation>开始:只有输入有值。按 → 从左到右逐个计算运算。</translation>
    </message>
  </context>
  <context>
    <name>TapeList</name>
    <message>
      <location filename="../../tapeviz/ui/window/tape_list.py" line="140" />
      <source>No gradient() call</source>
      <translation>没有 gradient() 调用</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/tape_list.py" line="156" />
      <source>%1 — %2 ops</source>
      <translation>%1 — %2 个运算</translation>
    </message>
  </context>
  <context>
    <name>Timeline</name>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="52" />
      <source>Back</source>
      <translation>上一步</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="56" />
      <source>Back to the first step (Home)</source>
      <translation>回到第一步(Home)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="57" />
      <source>One step back (←)</source>
      <translation>后退一步(←)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="58" />
      <source>Play or pause (Space)</source>
      <translation>播放或暂停(空格)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="59" />
      <source>One step forward (→)</source>
      <translation>前进一步(→)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="65" />
      <source>Log scale</source>
      <translation>对数刻度</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="67" />
      <source>Loss and gradient norm on a log axis</source>
      <translation>损失和梯度范数使用对数坐标轴</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="69" />
      <source>Tensors: norm</source>
      <translation>张量:范数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="70" />
      <source>Tensors: element</source>
      <translation>张量:元素</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="71" />
      <source>Tensors: heat strip</source>
      <translation>张量:热度条</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="75" />
      <source>Which element of each tensor (flattened)</source>
      <translation>每个张量(展平后)的第几个元素</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/controls.py" line="119" />
      <source>Series as CSV…</source>
      <translation>序列导出为 CSV…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/heat.py" line="73" />
      <source>Each tensor's elements per step: blue −max|v|, red +max|v|, grey unknown</source>
      <translation>各张量每步的元素:蓝为 −max|v|,红为 +max|v|,灰为未知</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/history_plot.py" line="52" />
      <source>History</source>
      <translation>训练历史</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/history_plot.py" line="53" />
      <source>epoch</source>
      <translation>轮次</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/output_link.py" line="108" />
      <source>Go to step {k}</source>
      <translation>转到第 {k} 步</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/plots.py" line="48" />
      <source>loss</source>
      <translation>损失</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/text.py" line="26" />
      <source>Loop {n}: Keras fit, {epochs} epochs, {steps} steps (tapes {first}–{last})</source>
      <translation>循环 {n}:Keras fit,{epochs} 轮,{steps} 步(磁带 {first}–{last})</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/text.py" line="29" />
      <source>Loop {n}: {steps} steps (tapes {first}–{last})</source>
      <translation>循环 {n}:{steps} 步(磁带 {first}–{last})</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/text.py" line="35" />
      <source>epoch {e} of {n}, batch {b} of {m}</source>
      <translation>第 {e}/{n} 轮,第 {b}/{m} 批</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/text.py" line="43" />
      <source>{title}; each step records {period} tape(s).</source>
      <translation>{title};每步记录 {period} 条磁带。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/timeline/text.py" line="59" />
      <source>The run kept {kept} tapes and recorded {n} more after them: a run keeps {most} tapes at most, fewer once their values fill half its memory limit (set in Preferences).</source>
      <translation>运行保留了 {kept} 条磁带,之后又记录了 {n} 条:一次运行最多保留 {most} 条磁带;当它们的数值占满内存上限的一半时保留得更少(可在“首选项”中设置)。</translation>
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
      <location filename="../../tapeviz/ui/window/timeline_link.py" line="124" />
      <source>Internal error: %1</source>
      <translation>内部错误:%1</translation>
    </message>
  </context>
  <context>
    <name>TooLargeBanner</name>
    <message>
      <location filename="../../tapeviz/ui/graph/scene.py" line="259" />
      <source>Show folded view</source>
      <translation>显示折叠视图</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/graph/scene.py" line="273" />
      <source>This tape recorded {n} ops: too many to draw in full. The folded view shows the first and last {k} ops and one summary node for the middle.</source>
      <translation>这条磁带记录了 {n} 个运算,太多,无法完整绘制。折叠视图显示前后各 {k} 个运算,中间用一个汇总节点表示。</translation>
    </message>
  </context>
  <context>
    <name>UserCode</name>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="23" />
      <source>mode must be 'expression' or 'script', got {mode}</source>
      <translation>模式必须是 'expression' 或 'script',而不是 {mode}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="26" />
      <source>no trainable variable named {names}</source>
      <translation>没有名为 {names} 的可训练变量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="27" />
      <source>no trainable variable: mark at least one row as trainable</source>
      <translation>没有可训练变量:请至少把一行标记为“可训练”</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="30" />
      <source>the trainable variable {name} must be float32 or float64</source>
      <translation>可训练变量 {name} 必须是 float32 或 float64</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="33" />
      <source>the loss must be a tensor computed from the trainable variables</source>
      <translation>损失必须是由可训练变量计算出的张量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="36" />
      <source>the loss must be a single number, but it has shape {shape}: wrap it in sum(...) or mean(...)</source>
      <translation>损失必须是单个数,但它的形状是 {shape}:请用 sum(...) 或 mean(...) 包起来</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="41" />
      <source>the loss must be a float, got {dtype}</source>
      <translation>损失必须是浮点数,而不是 {dtype}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="42" />
      <source>a script for the optimization studio must define `def loss():` (no parameters) returning the loss computed from the variables table</source>
      <translation>用于优化工作室的脚本必须定义 `def loss():`(无参数),返回由变量表计算出的损失</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="47" />
      <source>the script assigns {name} itself; leave the trainable variables to the variables table</source>
      <translation>脚本自己给 {name} 赋了值;可训练变量请交给变量表</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="51" />
      <source>a race has 1 to {cap} runs, got {count}</source>
      <translation>一场比赛有 1 到 {cap} 个运行,而这里有 {count} 个</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="52" />
      <source>steps must be between 1 and {cap}, got {steps}</source>
      <translation>步数必须在 1 到 {cap} 之间,而不是 {steps}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="53" />
      <source>method must be one of {methods}</source>
      <translation>方法必须是以下之一:{methods}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="54" />
      <source>the loss does not depend on any trainable variable</source>
      <translation>损失不依赖任何可训练变量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="57" />
      <source>this loss cannot be replayed: {why}</source>
      <translation>这个损失无法重放:{why}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="58" />
      <source>only scalar, elementwise losses replay with a run axis</source>
      <translation>只有标量、逐元素的损失才能沿运行轴重放</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="66" />
      <source>the script uses {name} outside loss()</source>
      <translation>脚本在 loss() 之外用到了 {name}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="67" />
      <source>loss() contains {kind} statements</source>
      <translation>loss() 里有 {kind} 语句</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="68" />
      <source>loss() assigns to something other than a plain name</source>
      <translation>loss() 给普通变量名以外的东西赋了值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="69" />
      <source>loss() calls {name}</source>
      <translation>loss() 调用了 {name}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="70" />
      <source>loss() uses {name}</source>
      <translation>loss() 用到了 {name}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="71" />
      <source>loss() reads the attribute .{name}</source>
      <translation>loss() 读取了属性 .{name}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="72" />
      <source>loss() indexes with a computed key</source>
      <translation>loss() 用计算出来的下标取值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="74" />
      <source>only scalar, elementwise traces replay with a run axis</source>
      <translation>只有标量、逐元素的追踪才能沿运行轴重放</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="75" />
      <source>{what} differs from the tape</source>
      <translation>{what}与磁带上的值不同</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="78" />
      <source>the replayed loss</source>
      <translation>重放得到的损失</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="79" />
      <source>a replayed gradient</source>
      <translation>重放得到的某个梯度</translation>
    </message>
    <message>
      <location filename="../../tapeviz/models/descent/messages.py" line="80" />
      <source>the batched replay</source>
      <translation>批量重放的结果</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="34" />
      <source>stopped by the user</source>
      <translation>已被用户停止</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="35" />
      <source>more than {cap} steps executed</source>
      <translation>执行了超过 {cap} 步</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="36" />
      <source>the script ran longer than the {seconds} s time limit</source>
      <translation>脚本运行超过了 {seconds} 秒的时间上限</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="39" />
      <source>more than {cap} characters printed</source>
      <translation>打印了超过 {cap} 个字符</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="40" />
      <source>print() would write more than {cap} characters</source>
      <translation>print() 将输出超过 {cap} 个字符</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="41" />
      <source>a __repr__ returned more than {cap} characters (the output limit)</source>
      <translation>某个 __repr__ 返回了超过 {cap} 个字符（超出输出限制）</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="44" />
      <source>tf.print would print more than {cap} characters</source>
      <translation>tf.print 将打印超过 {cap} 个字符</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="47" />
      <source>{name}() called itself (or other functions) more than {cap} levels deep</source>
      <translation>{name}() 调用自身(或其他函数)超过了 {cap} 层</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="50" />
      <source>the code is nested or recursive too deeply</source>
      <translation>代码嵌套或递归太深</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="51" />
      <source>the script used {grown} MB more memory, more than the limit of {cap} MB</source>
      <translation>脚本多用了 {grown} MB 内存,超过了 {cap} MB 的上限</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="54" />
      <source>more than {cap} MB of memory</source>
      <translation>内存超过 {cap} MB</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="55" />
      <source>the run's result is too big or too deep for the window to show: {why}</source>
      <translation>运行结果太大或嵌套太深,窗口无法显示:{why}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="58" />
      <source>{what} would have {count} elements, more than the limit of {cap}</source>
      <translation>{what}将有 {count} 个元素,超过了上限 {cap}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="61" />
      <source>{what} would have {count} elements, more than the tensor size limit of {cap}</source>
      <translation>{what}将有 {count} 个元素,超过了张量大小上限 {cap}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="64" />
      <source>{what} would take {count} multiply-adds, more than the limit of {cap}</source>
      <translation>{what}需要 {count} 次乘加,超过了上限 {cap}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="67" />
      <source>{what} would be an integer of about {bits} bits, more than the limit of {cap}</source>
      <translation>{what}将是约 {bits} 位的整数,超过了上限 {cap}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="71" />
      <source>{what} would make more than {cap} characters of text</source>
      <translation>{what}将产生超过 {cap} 个字符的文本</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="74" />
      <source>{what} would be at least {count} characters long, more than the limit of {cap}</source>
      <translation>{what}将至少有 {count} 个字符,超过了上限 {cap}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="77" />
      <source>{what} asks for a width of {width} (more than {cap})</source>
      <translation>{what}要求的宽度为 {width}(超过 {cap})</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="78" />
      <source>a tuple nested more than {cap} levels deep</source>
      <translation>元组嵌套超过了 {cap} 层</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="79" />
      <source>hashing this tuple would take too long (it shares parts)</source>
      <translation>对这个元组求哈希会太久(它有共享的部分)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="82" />
      <source>{what}: the list is nested more than {cap} levels deep</source>
      <translation>{what}:列表嵌套超过了 {cap} 层</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="85" />
      <source>this number is too large to compute</source>
      <translation>这个数太大,无法计算</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="87" />
      <source>round() with more than 10,000 digits either way is not available</source>
      <translation>不支持 round() 保留超过 10,000 位(无论正负)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="90" />
      <source>iter(function, sentinel) is not available; use a while loop</source>
      <translation>不支持 iter(function, sentinel);请用 while 循环</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="93" />
      <source>print(file=...) is not available: output goes to the console</source>
      <translation>不支持 print(file=...):输出总是写到控制台</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="96" />
      <source>math.{name} of a number above {cap} is not available</source>
      <translation>不支持对大于 {cap} 的数求 math.{name}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="99" />
      <source>import of '{module}' is not allowed</source>
      <translation>不允许导入 '{module}'</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="100" />
      <source>numpy values of dtype {dtype} are not available</source>
      <translation>不支持 dtype 为 {dtype} 的 numpy 值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="103" />
      <source>numpy arrays of dtype {dtype} are not available</source>
      <translation>不支持 dtype 为 {dtype} 的 numpy 数组</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="106" />
      <source>arrays of dtype {dtype} are not available</source>
      <translation>不支持 dtype 为 {dtype} 的数组</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="107" />
      <source>the integer {value} is too large for a numpy array</source>
      <translation>整数 {value} 太大,无法放进 numpy 数组</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="110" />
      <source>numpy options given as lists or tuples must hold integers</source>
      <translation>以列表或元组给出的 numpy 选项必须是整数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="113" />
      <source>'{name}' of {owner} is not available in tapeviz scripts</source>
      <translation>tapeviz 脚本中不能使用 {owner} 的 '{name}'</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="116" />
      <source>cannot set '{name}' on {owner}</source>
      <translation>不能设置 {owner} 的 '{name}'</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="117" />
      <source>{name} objects cannot be created directly in tapeviz scripts</source>
      <translation>tapeviz 脚本中不能直接创建 {name} 对象</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="120" />
      <source>calling {name} is not available in tapeviz scripts</source>
      <translation>tapeviz 脚本中不能调用 {name}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="121" />
      <source>{name}() is not available in tapeviz scripts</source>
      <translation>tapeviz 脚本中不能使用 {name}()</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="122" />
      <source>nested {{}} in a format spec are not available</source>
      <translation>格式说明中不支持嵌套的 {{}}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="125" />
      <source>format field '{field}' looks up attributes or items</source>
      <translation>格式字段 '{field}' 会查找属性或元素</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="128" />
      <source>% formatting with * widths is not available</source>
      <translation>不支持带 * 宽度的 % 格式化</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="129" />
      <source>with cannot use {name}</source>
      <translation>with 不能用于 {name}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="130" />
      <source>to stay within the memory limit the timeline keeps the first {kept} tapes ({mb} MB of values); the run went on without keeping later ones (raise the limit in Preferences to keep more)</source>
      <translation>为了不超出内存限制，时间线只保留前 {kept} 个 tape（{mb} MB 的数值）；之后的运行继续进行但不再保留 tape（可在偏好设置中提高限制以保留更多）</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="136" />
      <source>only @tf.function, @tf.custom_gradient, @property (and @x.setter), @staticmethod and @classmethod decorators are supported</source>
      <translation>只支持 @tf.function、@tf.custom_gradient、@property(及 @x.setter)、@staticmethod 和 @classmethod 装饰器</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="141" />
      <source>item assignment is not available on {name}</source>
      <translation>{name} 不支持元素赋值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="142" />
      <source>cannot assign to {name}</source>
      <translation>不能给 {name} 赋值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="143" />
      <source>del is not available on {name} items</source>
      <translation>{name} 的元素不支持 del</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="144" />
      <source>only names, attributes and list/dict items can be deleted</source>
      <translation>只能删除名称、属性和列表/字典的元素</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="147" />
      <source>{name} is not supported</source>
      <translation>不支持 {name}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="148" />
      <source>keyword arguments must be plain names</source>
      <translation>关键字参数必须是普通的名字</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="149" />
      <source>async functions are not supported</source>
      <translation>不支持异步函数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="150" />
      <source>async loops are not supported</source>
      <translation>不支持异步循环</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="151" />
      <source>async with is not supported</source>
      <translation>不支持 async with</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="152" />
      <source>await is not supported</source>
      <translation>不支持 await</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="153" />
      <source>yield works as a statement only (yield value), not inside an expression</source>
      <translation>yield 只能作为语句使用(yield value),不能用在表达式中</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="156" />
      <source>yield from works as a statement only, not inside an expression</source>
      <translation>yield from 只能作为语句使用,不能用在表达式中</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="159" />
      <source>the walrus operator := is not supported; assign on its own line</source>
      <translation>不支持海象运算符 :=;请单独一行赋值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="162" />
      <source>{what} '{name}' is not available</source>
      <translation>不能使用{what} '{name}'</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="163" />
      <source>the attribute '{name}' is not available</source>
      <translation>不能使用属性 '{name}'</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="164" />
      <source>import * is not supported</source>
      <translation>不支持 import *</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="165" />
      <source>relative imports are not supported</source>
      <translation>不支持相对导入</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="167" />
      <source>syntax error: {python}</source>
      <translation>语法错误:{python}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="168" />
      <source>syntax error: indentation: {python}</source>
      <translation>语法错误:缩进:{python}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="169" />
      <source>syntax error: {python} (the code ends too early)</source>
      <translation>语法错误:{python}(代码提前结束了)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="172" />
      <source>syntax error: indentation: {python} (the code ends too early)</source>
      <translation>语法错误:缩进:{python}(代码提前结束了)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="175" />
      <source>cannot read the code: {python}</source>
      <translation>无法读取代码:{python}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="176" />
      <source>cannot read the code: nested too deeply</source>
      <translation>无法读取代码:嵌套太深</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="177" />
      <source>the character {name} is a line break to some tools but not to Python</source>
      <translation>字符 {name} 在某些工具里是换行,在 Python 里却不是</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="180" />
      <source>a coding declaration is not allowed: tapeviz code is always UTF-8</source>
      <translation>不允许编码声明:tapeviz 代码总是 UTF-8</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="183" />
      <source>unknown name '{name}'</source>
      <translation>未知名称 '{name}'</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="184" />
      <source>unknown mode {mode}: use 'script' or 'expression'</source>
      <translation>未知模式 {mode}:请用 'script' 或 'expression'</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="187" />
      <source>division by zero</source>
      <translation>除以零</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="188" />
      <source>assertion failed</source>
      <translation>断言失败</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="189" />
      <source>assertion failed: {python}</source>
      <translation>断言失败:{python}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="190" />
      <source>no key {key} in the dict</source>
      <translation>字典中没有键 {key}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="192" />
      <source>the expression is empty</source>
      <translation>表达式是空的</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="193" />
      <source>unknown name '{name}' — add it as a variable?</source>
      <translation>未知名称 '{name}' —— 要把它添加为变量吗?</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="196" />
      <source>'{name}' is a function: call it like {name}(x)</source>
      <translation>'{name}' 是函数:请像 {name}(x) 这样调用</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="199" />
      <source>{what} is not allowed in an expression</source>
      <translation>表达式中不允许 {what}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="202" />
      <source>cannot compute this constant: {python}</source>
      <translation>无法计算这个常量:{python}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="203" />
      <source>only plain function names can be called, like sin(x)</source>
      <translation>只能调用普通的函数名,例如 sin(x)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="206" />
      <source>unknown function '{name}'</source>
      <translation>未知函数 '{name}'</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="207" />
      <source>{name}() takes positional arguments only</source>
      <translation>{name}() 只接受位置参数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="211" />
      <source>the run crashed the worker ({why}); your code is kept and the worker was restarted</source>
      <translation>这次运行使工作进程崩溃了({why});你的代码已保留,工作进程已重启</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="215" />
      <source>the run crashed the worker (it exited with status {status}); your code is kept and the worker was restarted</source>
      <translation>这次运行使工作进程崩溃了(退出状态 {status});你的代码已保留,工作进程已重启</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="221" />
      <source>the value is empty</source>
      <translation>值是空的</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="222" />
      <source>the value is too long</source>
      <translation>值太长</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="223" />
      <source>{text} is not a number or a list like [1, 2, 3]</source>
      <translation>{text} 不是数字,也不是 [1, 2, 3] 这样的列表</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="226" />
      <source>{name} is not a valid variable name</source>
      <translation>{name} 不是合法的变量名</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="227" />
      <source>variable kind must be one of {kinds}, got {kind}</source>
      <translation>变量类型必须是 {kinds} 之一,而不是 {kind}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="230" />
      <source>the name {name} is used twice</source>
      <translation>名字 {name} 用了两次</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="232" />
      <source>raise the limit in Preferences if this is intended</source>
      <translation>如果确实需要,请在“首选项”中提高限制</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="235" />
      <source>an endless loop? (or raise the time limit in Preferences)</source>
      <translation>是死循环吗?(或在“首选项”中提高时间上限)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="238" />
      <source>does the recursion have a base case?</source>
      <translation>递归有终止条件吗?</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="239" />
      <source>did you mean '{name}'?</source>
      <translation>你是不是想写 '{name}'?</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="240" />
      <source>known: {names}</source>
      <translation>可用的有:{names}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="241" />
      <source>tapeviz scripts can import tensorflow, torch, numpy, matplotlib, sklearn, math, random, os, time, timeit, datetime, pathlib, pprint, tqdm and tapeviz</source>
      <translation>tapeviz 脚本可以导入 tensorflow、torch、numpy、matplotlib、sklearn、math、random、os、time、timeit、datetime、pathlib、pprint、tqdm 和 tapeviz</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="246" />
      <source>only the documented public API of tensors, tapes and optimizers is</source>
      <translation>只有张量、磁带和优化器的公开文档接口可用</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="249" />
      <source>only opt.learning_rate is settable</source>
      <translation>只有 opt.learning_rate 可以设置</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="250" />
      <source>write the width itself</source>
      <translation>请直接写出宽度</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="251" />
      <source>format the value itself instead, e.g. f'{{x:.3f}}'</source>
      <translation>请直接格式化这个值,例如 f'{{x:.3f}}'</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="254" />
      <source>does it contain itself?</source>
      <translation>它包含了它自己吗?</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="255" />
      <source>with works with tf.GradientTape(...), tape.stop_recording() and torch.no_grad()</source>
      <translation>with 可用于 tf.GradientTape(...)、tape.stop_recording() 和 torch.no_grad()</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="259" />
      <source>no file or memory access</source>
      <translation>不能访问文件或内存</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="260" />
      <source>no running of other code</source>
      <translation>不能运行其他代码</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="261" />
      <source>no introspection</source>
      <translation>不能内省</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="262" />
      <source>dunder names are off limits</source>
      <translation>双下划线名字不可使用</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="263" />
      <source>private attributes are open on your own classes' objects and on the methods your classes add to library classes, never on library objects; dunder attributes are off limits</source>
      <translation>私有属性对你自己的类的对象、以及你的类添加到库类上的方法开放,库的对象不开放;双下划线属性不能使用</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="269" />
      <source>import the names you need</source>
      <translation>请导入你需要的名字</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="270" />
      <source>replace it with a newline or a space</source>
      <translation>请把它换成换行或空格</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="271" />
      <source>remove the '# coding: …' comment</source>
      <translation>请删除 '# coding: …' 注释</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="272" />
      <source>switch to script mode for Python code</source>
      <translation>Python 代码请切换到脚本模式</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="273" />
      <source>{op} needs a float: write {value} instead of {literal}</source>
      <translation>{op} 需要浮点数:请写 {value},而不是 {literal}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="276" />
      <source>use {ns}.cast(x, {ns}.{dtype})</source>
      <translation>请用 {ns}.cast(x, {ns}.{dtype})</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="278" />
      <source>{python}</source>
      <translation>{python}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="279" />
      <source>{name} is not available in tapeviz</source>
      <translation>tapeviz 中没有 {name}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="280" />
      <source>the run is over: its functions cannot be called any more</source>
      <translation>运行已结束:它的函数不能再被调用</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="283" />
      <source>{name} (its message could not be shown)</source>
      <translation>{name}(无法显示它的消息)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="284" />
      <source>{text}</source>
      <translation>{text}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="285" />
      <source>class keywords (metaclass=...) are not supported in tapeviz scripts</source>
      <translation>tapeviz 脚本不支持类关键字参数(metaclass=...)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="288" />
      <source>class decorators are not supported in tapeviz scripts</source>
      <translation>tapeviz 脚本不支持类装饰器</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="291" />
      <source>a class's bases must be written out, not unpacked with *</source>
      <translation>类的基类必须逐个写出,不能用 * 展开</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="294" />
      <source>the class attribute '{name}' is not available</source>
      <translation>类属性 '{name}' 不可用</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="297" />
      <source>a tapeviz class may define __init__, __call__, __len__, __getitem__, __repr__ and the arithmetic operators (__add__, __radd__, __sub__, __mul__, __truediv__, __pow__, __matmul__, __neg__, …), no other __methods__</source>
      <translation>tapeviz 的类可以定义 __init__、__call__、__len__、__getitem__、__repr__ 和算术运算符(__add__、__radd__、__sub__、__mul__、__truediv__、__pow__、__matmul__、__neg__ 等),不能定义其他 __方法__</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="303" />
      <source>a class may not give a name starting with _ that a library base class already has (nor any __name)</source>
      <translation>类不能定义库基类已有的以 _ 开头的名称(也不能定义任何 __ 名称)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="308" />
      <source>cannot delete '{name}' of {owner}</source>
      <translation>不能删除 {owner} 的 '{name}'</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="309" />
      <source>type() with three arguments is not available: write a class statement</source>
      <translation>不支持三个参数的 type():请写 class 语句</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="312" />
      <source>object() is not available in tapeviz scripts</source>
      <translation>tapeviz 脚本中不能调用 object()</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="313" />
      <source>object works as a base class</source>
      <translation>object 可以作为基类使用</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="314" />
      <source>{what} works only on functions defined in the script</source>
      <translation>{what} 只能用于脚本中定义的函数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="317" />
      <source>{name} must be a method defined with def</source>
      <translation>{name} 必须是用 def 定义的方法</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="318" />
      <source>super().{name} is not available in tapeviz scripts</source>
      <translation>tapeviz 脚本中不能使用 super().{name}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="321" />
      <source>see Help → "Libraries in tapeviz" for what is there</source>
      <translation>可用的名称见 帮助 → "tapeviz 中的库"</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="324" />
      <source>add `{line}` above (tf and np are always there)</source>
      <translation>在上方加上 `{line}`(tf 和 np 总是已经导入)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="327" />
      <source>did you mean 'plt.{name}'? (`import matplotlib.pyplot as plt`)</source>
      <translation>是不是想写 'plt.{name}'?(`import matplotlib.pyplot as plt`)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="330" />
      <source>tf.{name} is not available in tapeviz; see Help → "Libraries in tapeviz" for what is there</source>
      <translation>tapeviz 中没有 tf.{name};可用的名称见 帮助 → "tapeviz 中的库"</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="335" />
      <source>tapeviz's numpy has maths, random numbers and array creation</source>
      <translation>tapeviz 的 numpy 提供数学函数、随机数和数组创建</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="338" />
      <source>the Plots tab draws plot, scatter, hist, bar, imshow and contour</source>
      <translation>“图表”标签页可以绘制 plot、scatter、hist、bar、imshow 和 contour</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="345" />
      <source>tapeviz scripts have no file access</source>
      <translation>tapeviz 脚本不能访问文件</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="346" />
      <source>it would run Python code or expose memory outside tapeviz's checks</source>
      <translation>它会在 tapeviz 的检查之外运行 Python 代码或暴露内存</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="349" />
      <source>pandas is not available in tapeviz: use numpy arrays</source>
      <translation>tapeviz 中没有 pandas:请用 numpy 数组</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="350" />
      <source>JAX is not available in tapeviz: write it with tf or np</source>
      <translation>tapeviz 中没有 JAX:请用 tf 或 np 来写</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="351" />
      <source>seaborn is not available in tapeviz: use plt</source>
      <translation>tapeviz 中没有 seaborn:请用 plt</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="352" />
      <source>scipy is not available in tapeviz: use np and tf</source>
      <translation>tapeviz 中没有 scipy:请用 np 和 tf</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="353" />
      <source>TensorFlow Probability is not available in tapeviz</source>
      <translation>tapeviz 中没有 TensorFlow Probability</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="354" />
      <source>TensorFlow Datasets is not available in tapeviz (no downloads): sklearn.datasets.load_digits has 8×8 digits, make_moons and make_circles toy sets</source>
      <translation>tapeviz 中没有 TensorFlow Datasets(不下载数据):sklearn.datasets.load_digits 有 8×8 的手写数字,make_moons 和 make_circles 可造玩具数据集</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="359" />
      <source>torchvision, torchaudio and torchtext are not available in tapeviz (no downloads): make a small data set in the script (torch.randn, TensorDataset), or use sklearn.datasets.load_digits (8×8 digits)</source>
      <translation>tapeviz 中没有 torchvision、torchaudio 和 torchtext(不下载数据):请在脚本里造一个小数据集(torch.randn、TensorDataset),或使用 sklearn.datasets.load_digits(8×8 手写数字)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="365" />
      <source>scikit-learn's models are not in tapeviz (its data sets, splits, scalers and scores are): build the model with tf or torch</source>
      <translation>tapeviz 中没有 scikit-learn 的模型(有它的数据集、划分、缩放和评分):请用 tf 或 torch 搭建模型</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="370" />
      <source>tapeviz downloads nothing: use a bundled set (load_iris, load_digits, load_wine, load_breast_cancer, load_diabetes) or make one (make_moons, make_circles, make_blobs)</source>
      <translation>tapeviz 不下载任何数据:请使用自带的数据集(load_iris、load_digits、load_wine、load_breast_cancer、load_diabetes)或自己生成(make_moons、make_circles、make_blobs)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="375" />
      <source>tapeviz scripts have no access to files, the system or the clock</source>
      <translation>tapeviz 脚本不能访问文件、系统或时钟</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="378" />
      <source>display() is IPython's: use print(), or plt.show() for plots</source>
      <translation>display() 属于 IPython:请用 print(),绘图请用 plt.show()</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="380" />
      <source>the array</source>
      <translation>数组</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="381" />
      <source>the list</source>
      <translation>列表</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="382" />
      <source>the dict</source>
      <translation>字典</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="383" />
      <source>the set</source>
      <translation>集合</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="384" />
      <source>the collection</source>
      <translation>容器</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="385" />
      <source>the slice</source>
      <translation>切片</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="386" />
      <source>the display</source>
      <translation>字面量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="387" />
      <source>the comprehension</source>
      <translation>推导式</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="388" />
      <source>the f-string</source>
      <translation>f 字符串</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="389" />
      <source>the formatted values</source>
      <translation>要格式化的值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="390" />
      <source>the replaced string</source>
      <translation>替换后的字符串</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="391" />
      <source>the formatted string</source>
      <translation>格式化后的字符串</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="392" />
      <source>the % format</source>
      <translation>% 格式化</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="393" />
      <source>the changed string</source>
      <translation>改变大小写后的字符串</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="394" />
      <source>the joined string</source>
      <translation>拼接后的字符串</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="395" />
      <source>the result of +</source>
      <translation>+ 的结果</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="396" />
      <source>the repeated sequence</source>
      <translation>重复后的序列</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="397" />
      <source>the matrix product</source>
      <translation>矩阵乘积</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="398" />
      <source>the range scan</source>
      <translation>range 扫描</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="399" />
      <source>the * arguments</source>
      <translation>* 参数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="400" />
      <source>the product</source>
      <translation>乘积</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="401" />
      <source>the shifted integer</source>
      <translation>移位后的整数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="402" />
      <source>the power</source>
      <translation>幂</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="403" />
      <source>the code</source>
      <translation>代码</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="405" />
      <source>the name</source>
      <translation>名字</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="406" />
      <source>the function name</source>
      <translation>函数名</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="407" />
      <source>the parameter</source>
      <translation>参数</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="408" />
      <source>the keyword</source>
      <translation>关键字</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="409" />
      <source>the module</source>
      <translation>模块</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="411" />
      <source>segmentation fault</source>
      <translation>段错误</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="412" />
      <source>bus error</source>
      <translation>总线错误</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="413" />
      <source>aborted</source>
      <translation>已中止</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="414" />
      <source>floating-point exception</source>
      <translation>浮点异常</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="415" />
      <source>illegal instruction</source>
      <translation>非法指令</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="416" />
      <source>killed</source>
      <translation>被终止</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="417" />
      <source>CPU time limit</source>
      <translation>CPU 时间上限</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="418" />
      <source>the application is closing</source>
      <translation>应用正在关闭</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="419" />
      <source>tapeviz downloads nothing: make the data in the script or take it from sklearn.datasets (make_circles, make_moons, load_digits, …)</source>
      <translation>tapeviz 不下载任何内容：请在脚本中生成数据，或使用 sklearn.datasets（make_circles、make_moons、load_digits 等）</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="424" />
      <source>helper_functions.py is a course's own file (downloaded with requests): paste the functions you need into the script; the Network view draws a 2-D model's decision boundary</source>
      <translation>helper_functions.py 是课程自带的文件（用 requests 下载）：请把需要的函数粘贴到脚本中；网络视图会画出二维模型的决策边界</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="429" />
      <source>torchmetrics is not available in tapeviz: compute the metric with torch ((y_pred == y).float().mean()) or sklearn.metrics</source>
      <translation>tapeviz 中没有 torchmetrics：请用 torch 计算指标（(y_pred == y).float().mean()）或使用 sklearn.metrics</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/messages.py" line="434" />
      <source>torchinfo is not available in tapeviz: print(model) lists the layers and sum(p.numel() for p in model.parameters()) counts the parameters</source>
      <translation>tapeviz 中没有 torchinfo：print(model) 会列出各层，sum(p.numel() for p in model.parameters()) 可统计参数数量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="14" />
      <source>line {line}: {command} is an IPython command; tapeviz skipped it</source>
      <translation>第 {line} 行:{command} 是 IPython 命令,tapeviz 跳过了它</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="17" />
      <source>^ was read as ** (power); in Python code write x**2</source>
      <translation>^ 被读作 **(乘方);在 Python 代码中请写 x**2</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="20" />
      <source>{old} was read as {new}</source>
      <translation>{old} 被读作 {new}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="21" />
      <source>the expression has shape {shape}: gradients are of its sum</source>
      <translation>表达式的形状是 {shape}:梯度是对它的总和求的</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="24" />
      <source>line {line}: ^ is bitwise xor in Python ({a} ^ {b} = {value}); for a power write {a}**{b}</source>
      <translation>第 {line} 行:在 Python 中 ^ 是按位异或({a} ^ {b} = {value});乘方请写 {a}**{b}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="28" />
      <source>line {line}: tape.gradient gave None: {target} was computed outside the `with tape:` block, so the tape never recorded it</source>
      <translation>第 {line} 行:tape.gradient 返回了 None:{target} 是在 `with tape:` 代码块之外计算的,所以 tape 从未记录它</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="33" />
      <source>line {line}: tape.gradient gave None: {source} was not watched ({why})</source>
      <translation>第 {line} 行:tape.gradient 返回了 None:{source} 没有被监视({why})</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="36" />
      <source>line {line}: tape.gradient gave None: {target} does not depend on {source}</source>
      <translation>第 {line} 行:tape.gradient 返回了 None:{target} 不依赖于 {source}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="39" />
      <source>legend(): no series has a label (plot(..., label='loss'))</source>
      <translation>legend():没有任何曲线带标签(plot(..., label='loss'))</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="42" />
      <source>plt.style.use({style}): the Plots tab follows tapeviz's theme (View → Dark theme)</source>
      <translation>plt.style.use({style}):图表标签页跟随 tapeviz 的主题(视图 → 深色主题)</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="46" />
      <source>savefig({name}) wrote no file: the figure is in the Plots tab, export it from there as PNG or SVG</source>
      <translation>savefig({name}) 没有写入文件:图在图表标签页中,可从那里导出为 PNG 或 SVG</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="51" />
      <source>{name} gets no gradient: the loss does not depend on it</source>
      <translation>{name} 没有梯度:损失不依赖于它</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="54" />
      <source>re-traced every step ({why})</source>
      <translation>每一步都重新追踪({why})</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="59" />
      <source>the target</source>
      <translation>目标</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="60" />
      <source>the source</source>
      <translation>源</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="61" />
      <source>a source</source>
      <translation>某个源</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="62" />
      <source>the tape was created with watch_accessed_variables=False</source>
      <translation>创建 tape 时使用了 watch_accessed_variables=False</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="63" />
      <source>it is not trainable</source>
      <translation>它不可训练</translation>
    </message>
    <message>
      <location filename="../../tapeviz/sandbox/note_texts.py" line="64" />
      <source>constants are not watched unless you call tape.watch(x)</source>
      <translation>常量不会被监视,除非调用 tape.watch(x)</translation>
    </message>
  </context>
  <context>
    <name>ValueView</name>
    <message>
      <location filename="../../tapeviz/ui/stepper/value_view.py" line="81" />
      <source>Show full value</source>
      <translation>显示完整值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/value_view.py" line="83" />
      <source>Fetch this tape's values</source>
      <translation>获取此磁带的值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/value_view.py" line="86" />
      <source>Fetch every summarised value of the tape: gradients and stepping need them</source>
      <translation>获取此磁带所有被摘要的值:计算梯度和逐步演示需要它们</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/value_view.py" line="143" />
      <source>Select a node on the graph to see its value.</source>
      <translation>在图上选择一个节点以查看它的值。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/value_view.py" line="167" />
      <source>Summarised: {summary}</source>
      <translation>摘要:{summary}</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/value_view.py" line="169" />
      <source>First elements: {values}, …</source>
      <translation>前几个元素:{values}, …</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/value_view.py" line="172" />
      <location filename="../../tapeviz/ui/stepper/value_view.py" line="197" />
      <source>Fetching…</source>
      <translation>正在获取…</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/value_view.py" line="174" />
      <source>The full value can be fetched once the run has ended.</source>
      <translation>运行结束后才能获取完整值。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/value_view.py" line="176" />
      <source>This value was not kept: run again to see it.</source>
      <translation>此值未被保留:请重新运行以查看。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/value_view.py" line="211" />
      <source>Full value.</source>
      <translation>完整值。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/value_view.py" line="213" />
      <source>The full value is no longer available: run again.</source>
      <translation>完整值已不可用:请重新运行。</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/stepper/value_view.py" line="216" />
      <source>Could not fetch the full value: {error}</source>
      <translation>无法获取完整值:{error}</translation>
    </message>
  </context>
  <context>
    <name>VariablesTable</name>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="26" />
      <source>trainable</source>
      <translation>可训练</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="27" />
      <source>constant</source>
      <translation>常量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="28" />
      <source>watched</source>
      <translation>被监视</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="41" />
      <source>Name</source>
      <translation>名称</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="41" />
      <source>Value</source>
      <translation>值</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="41" />
      <source>Kind</source>
      <translation>类型</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="48" />
      <source>Add variable</source>
      <translation>添加变量</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="50" />
      <source>Remove</source>
      <translation>删除</translation>
    </message>
    <message>
      <location filename="../../tapeviz/ui/window/variables_table.py" line="162" />
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
      <source>PyTorch</source>
      <translation>PyTorch</translation>
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
      <source>TensorFlow prints nothing here; the last line's value is the Out line under the Output pane, as a notebook shows it.</source>
      <translation>TensorFlow 在这里不打印任何内容;最后一行的值显示在输出面板下方的「输出值：」一行,与 notebook 一致。</translation>
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
      <source>TensorFlow prints nothing here: look at the graph and the variables.</source>
      <translation>TensorFlow 在这里不打印任何内容:请看计算图和变量。</translation>
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
      <source>PyTorch's autograd tutorial: x, w, b, z, loss</source>
      <translation>PyTorch 的 autograd 教程:x、w、b、z、loss</translation>
    </message>
    <message>
      <source>From PyTorch's 'Automatic Differentiation with torch.autograd': the graph's nodes are named by grad_fn (AddBackward0, BinaryCrossEntropyWithLogitsBackward0); w and b are the leaves that require grad. The random numbers are tapeviz's, not torch's.</source>
      <translation>取自 PyTorch 的《Automatic Differentiation with torch.autograd》:图中的节点以 grad_fn 命名(AddBackward0、BinaryCrossEntropyWithLogitsBackward0);w 和 b 是需要梯度的叶子节点。随机数由 tapeviz 生成,与 torch 的不同。</translation>
    </message>
    <message>
      <source>.grad accumulates until zeroed</source>
      <translation>.grad 会累加,直到清零</translation>
    </message>
    <message>
      <source>Each backward() is one pass in the stepper's pass box: the second call doubles inp.grad (4 -&gt; 8), zero_() resets it. What torch prints: First call [[4., 2., 2., 2., 2.], ...], Second call [[8., 4., ...]], after zeroing [[4., 2., ...]].</source>
      <translation>每次 backward() 都是步进器通道框中的一次传播:第二次调用让 inp.grad 翻倍(4 -&gt; 8),zero_() 将其清零。torch 的输出:First call [[4., 2., 2., 2., 2.], ...],Second call [[8., 4., ...]],清零之后 [[4., 2., ...]]。</translation>
    </message>
    <message>
      <source>The micrograd lecture's neuron in PyTorch</source>
      <translation>micrograd 课程中的神经元(PyTorch 版)</translation>
    </message>
    <message>
      <source>The lecture's torch cell, as it was typed: o = 0.7071066904050358; x2.grad 0.5000001283844369, w2.grad 0.0, x1.grad -1.5000003851533106, w1.grad 1.0000002567688737 (what torch printed there). Step the backward pass: each step is the chain rule with .grad as PyTorch names it.</source>
      <translation>课程中的 torch 代码,原样照录:o = 0.7071066904050358;x2.grad 0.5000001283844369,w2.grad 0.0,x1.grad -1.5000003851533106,w1.grad 1.0000002567688737(课程中 torch 的输出)。逐步执行反向传播:每一步都是链式法则,.grad 的叫法与 PyTorch 相同。</translation>
    </message>
    <message>
      <source>A small network trained with nn, optim and a DataLoader</source>
      <translation>用 nn、optim 和 DataLoader 训练一个小网络</translation>
    </message>
    <message>
      <source>One timeline over every batch of every epoch (5 epochs x 4 batches), parameters named as named_parameters() names them (fc1.weight ... fc2.bias); the graph of a step is the network's forward pass, Linear as AddmmBackward0.</source>
      <translation>每个轮次的每个批次合成一条时间线(5 轮 x 4 批),参数按 named_parameters() 的名称命名(fc1.weight ... fc2.bias);每一步的图就是网络的前向传播,Linear 显示为 AddmmBackward0。</translation>
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
    <message>
      <source>Circle, no hidden layer, x₁ and x₂</source>
      <translation>圆形,无隐藏层,x₁ 和 x₂</translation>
    </message>
    <message>
      <source>One neuron on x₁ and x₂ draws a straight line: it cannot separate a disc from a ring, so the loss stays near 0.5.</source>
      <translation>基于 x₁ 和 x₂ 的单个神经元只能画一条直线:它分不开圆盘和圆环,所以损失停在 0.5 附近。</translation>
    </message>
    <message>
      <source>Circle, no hidden layer, x₁² and x₂²</source>
      <translation>圆形,无隐藏层,x₁² 和 x₂²</translation>
    </message>
    <message>
      <source>The same single neuron on x₁² and x₂² draws a circle: the loss falls close to 0 within a few dozen epochs.</source>
      <translation>同一个神经元换成 x₁² 和 x₂² 就能画出圆:几十个轮次内损失降到接近 0。</translation>
    </message>
    <message>
      <source>XOR from the feature x₁x₂</source>
      <translation>用特征 x₁x₂ 解异或</translation>
    </message>
    <message>
      <source>x₁x₂ is positive exactly where XOR's label is: one neuron on it is enough.</source>
      <translation>x₁x₂ 恰好在异或标签为正的地方为正:一个神经元就够了。</translation>
    </message>
    <message>
      <source>XOR with a hidden layer</source>
      <translation>用一个隐藏层解异或</translation>
    </message>
    <message>
      <source>From x₁ and x₂ alone, XOR needs a hidden layer: four tanh neurons learn it.</source>
      <translation>只用 x₁ 和 x₂ 时,异或需要一个隐藏层:四个 tanh 神经元就能学会。</translation>
    </message>
    <message>
      <source>Spiral: six layers of eight</source>
      <translation>螺旋:六层,每层八个</translation>
    </message>
    <message>
      <source>Two interleaved spirals need depth: all seven features into six tanh layers of eight, SGD at 0.02, reach a low loss in about 300 epochs.</source>
      <translation>两条交错的螺旋需要深度:七个特征全部输入六个各有八个神经元的 tanh 层,SGD 学习率 0.02,约 300 个轮次后损失很低。</translation>
    </message>
    <message>
      <source>micrograd's moons demo</source>
      <translation>micrograd 的月牙演示</translation>
    </message>
    <message>
      <source>micrograd's demo: 100 moons points, 2-16-16-1 ReLU, max-margin loss + L2, SGD with lr 1 → 0.1 over 100 full-batch steps. 10 points are kept as a test set for the view (micrograd trains on all 100); the L2 term penalises the weights, not the biases.</source>
      <translation>micrograd 的演示:100 个月牙数据点,2-16-16-1 ReLU,最大间隔损失加 L2,SGD 学习率在 100 个全批量步中从 1 降到 0.1。视图留出 10 个点作为测试集(micrograd 用全部 100 个训练);L2 项惩罚权重,不惩罚偏置。</translation>
    </message>
    <message>
      <source>Playground's default</source>
      <translation>Playground 的默认设置</translation>
    </message>
    <message>
      <source>Circle data, x₁ and x₂, hidden layers 4-2, tanh, SGD at 0.03, batches of 10.</source>
      <translation>圆形数据,输入 x₁ 和 x₂,隐藏层 4-2,tanh,SGD 学习率 0.03,批大小 10。</translation>
    </message>
  </context>
</TS>